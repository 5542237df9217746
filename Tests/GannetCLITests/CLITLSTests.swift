import Foundation
import GannetTestSupport
import Testing

/// TLS options and `gannet pins` against the test nginx endpoints, with nginx's access log as
/// proof of what was (not) sent.
@Suite("gannet TLS and pins")
struct CLITLSTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    func url(_ variant: TLSVariant, _ path: String) -> String {
        servers.tlsEndpoint(variant).absoluteString + path
    }

    var ca: String { servers.certificates.caBundle }

    /// The pins `gannet pins` prints, first column.
    func pins(_ target: String) async throws -> [String] {
        let result = try await GannetBinary.run(["pins", target])
        #expect(result.status == 0, "\(result.err)")
        return result.out.split(separator: "\n").map { String($0.split(separator: " ").first ?? "") }
    }

    @Test func pinsOfAServerAreItsPresentedChainAndNoRequestIsSent() async throws {
        let marker = "pins-\(UUID().uuidString)"
        let result = try await GannetBinary.run(["pins", url(.good, "small?id=\(marker)")])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n")
        #expect(lines.count == 2, "leaf and intermediate: \(result.out)")
        #expect(lines.allSatisfy { $0.hasPrefix("sha256/") })
        #expect(lines.first?.contains("localhost") == true)
        #expect(servers.accessLogLines(containing: marker).isEmpty)
        // The same pins as the certificate files.
        let leaf = try await pins(servers.certificates.leaf(.good).pem)
        let leafDER = try await pins(servers.certificates.leaf(.good).der)
        let intermediate = try await pins(servers.certificates.intermediateCA)
        #expect(leaf.count == 1 && leaf == leafDER)
        #expect(try await pins(url(.good, "")) == leaf + intermediate)
    }

    @Test func pinsErrors() async throws {
        #expect(try await GannetBinary.run(["pins", "/nonexistent/cert.pem"]).status == 1)
        #expect(try await GannetBinary.run(["pins", "http://example.com/"]).status == 2)
        let refused = try await GannetBinary.run(["pins", "https://127.0.0.1:1/"])
        #expect(refused.status == 1)
        #expect(refused.err.hasPrefix("gannet: error: "))
    }

    @Test func caFileIsNeededForTheTestCA() async throws {
        let trusted = try await GannetBinary.run(["--cacert", ca, url(.good, "small")])
        #expect(trusted.status == 0, "\(trusted.err)")
        #expect(trusted.out == "ok")
        let untrusted = try await GannetBinary.run([url(.good, "small")])
        #expect(untrusted.status == 1)
        #expect(untrusted.err.hasPrefix("gannet: error: "))
    }

    @Test func rightPinPassesAndWrongPinIsRefusedInTheHandshake() async throws {
        let leafPin = try #require(try await pins(servers.certificates.leaf(.good).pem).first)
        let intermediatePin = try #require(try await pins(servers.certificates.intermediateCA).first)
        let pass = try await GannetBinary.run(["--cacert", ca, "--pin", leafPin, url(.good, "small")])
        #expect(pass.status == 0, "\(pass.err)")
        let backup = try await GannetBinary.run([
            "--cacert", ca, "--pin", "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "--pin", intermediatePin,
            url(.good, "small"),
        ])
        #expect(backup.status == 0, "any pin of the set, anywhere in the verified chain: \(backup.err)")

        let marker = "wrong-pin-\(UUID().uuidString)"
        let refused = try await GannetBinary.run([
            "--cacert", ca, "--pin", "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
            url(.good, "small?id=\(marker)"),
        ])
        #expect(refused.status == 1)
        #expect(refused.err.hasPrefix("gannet: error: "))
        #expect(refused.err.contains(leafPin), "the error lists the presented pins: \(refused.err)")
        #expect(servers.accessLogLines(containing: marker).isEmpty, "nothing was sent")
    }

    @Test func pinningNeverReplacesTheHostNameCheck() async throws {
        let pin = try #require(try await pins(servers.certificates.leaf(.wrongHost).pem).first)
        let refused = try await GannetBinary.run(["--cacert", ca, "--pin", pin, url(.wrongHost, "small")])
        #expect(refused.status == 1)
        let relaxed = try await GannetBinary.run([
            "--cacert", ca, "--pin", pin, "--no-validate-domain", url(.wrongHost, "small"),
        ])
        #expect(relaxed.status == 0, "\(relaxed.err)")
    }

    @Test func pinnedCertificateModes() async throws {
        let leaf = servers.certificates.leaf(.good).pem
        // Certificate mode (AFNetworking's): the chain must validate against the store and
        // also lead to a pinned certificate.
        let certificate = try await GannetBinary.run([
            "--cacert", ca, "--pinned-cert", leaf, "--pinning-mode", "certificate", url(.good, "small"),
        ])
        #expect(certificate.status == 0, "\(certificate.err)")
        let untrusted = try await GannetBinary.run([
            "--pinned-cert", leaf, "--pinning-mode", "certificate", url(.good, "small"),
        ])
        #expect(untrusted.status == 1, "the system store does not know the test CA")
        // With invalid certificates allowed, the pinned certificate alone anchors the chain.
        let anchored = try await GannetBinary.run([
            "--allow-invalid-certificates", "--pinned-cert", leaf, "--pinning-mode", "certificate", url(.good, "small"),
        ])
        #expect(anchored.status == 0, "\(anchored.err)")
        let otherCertificate = try await GannetBinary.run([
            "--cacert", ca, "--pinned-cert", servers.certificates.leaf(.rsa).pem, "--pinning-mode", "certificate",
            url(.good, "small"),
        ])
        #expect(otherCertificate.status == 1)
        // Public-key mode: the key must be in a chain the store trusts.
        let publicKey = try await GannetBinary.run(["--cacert", ca, "--pinned-cert", leaf, url(.good, "small")])
        #expect(publicKey.status == 0, "\(publicKey.err)")
        let otherKey = try await GannetBinary.run([
            "--cacert", ca, "--pinned-cert", servers.certificates.leaf(.rsa).pem, url(.good, "small"),
        ])
        #expect(otherKey.status == 1)
    }

    @Test func invalidCertificatesOnlyWhenAllowed() async throws {
        #expect(try await GannetBinary.run(["--cacert", ca, url(.selfSigned, "small")]).status == 1)
        #expect(try await GannetBinary.run(["--cacert", ca, url(.expired, "small")]).status == 1)
        #expect(try await GannetBinary.run(["--allow-invalid-certificates", url(.selfSigned, "small")]).status == 0)
        #expect(try await GannetBinary.run(["--allow-invalid-certificates", url(.expired, "small")]).status == 0)
        let leaf = servers.certificates.leaf(.expired).pem
        let pinnedExpired = try await GannetBinary.run([
            "--allow-invalid-certificates", "--pinned-cert", leaf, url(.expired, "small"),
        ])
        #expect(pinnedExpired.status == 0, "the pin still decides: \(pinnedExpired.err)")
        let otherPin = try await GannetBinary.run([
            "--allow-invalid-certificates", "--pinned-cert", servers.certificates.leaf(.good).pem,
            url(.expired, "small"),
        ])
        #expect(otherPin.status == 1)
    }

    @Test func domainValidationCanBeTurnedOff() async throws {
        #expect(try await GannetBinary.run(["--cacert", ca, url(.wrongHost, "small")]).status == 1)
        #expect(
            try await GannetBinary.run(["--cacert", ca, "--no-validate-domain", url(.wrongHost, "small")]).status == 0
        )
    }

    @Test func mutualTLS() async throws {
        let certificates = servers.certificates
        let with = try await GannetBinary.run([
            "--cacert", ca, "--cert", certificates.clientCertificate, "--key", certificates.clientKey,
            "--check-status", url(.mutualTLS, "small"),
        ])
        #expect(with.status == 0, "\(with.err)")
        let pkcs12 = try await GannetBinary.run([
            "--cacert", ca, "--cert", certificates.clientPKCS12, "--check-status", url(.mutualTLS, "small"),
        ])
        #expect(
            pkcs12.status != 0,
            "a password-protected PKCS#12 needs its password (--cert-key-pass, CLINetworkOptionTests)"
        )
        let without = try await GannetBinary.run(["--cacert", ca, "--check-status", url(.mutualTLS, "small")])
        #expect(without.status == 4, "nginx answers 400 without a client certificate")
    }

    @Test(arguments: [
        ["--pin", "md5/abc", "https://localhost/"], ["--pinning-mode", "certificate", "https://localhost/"],
        [
            "--pin", "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", "--allow-invalid-certificates",
            "https://localhost/",
        ],
        ["--key", "k.pem", "https://localhost/"],
    ])
    func tlsUsageErrors(_ arguments: [String]) async throws {
        let result = try await GannetBinary.run(arguments)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.hasPrefix("gannet: error: "))
    }
}
