import Foundation
import GannetTestSupport
import Testing

/// `--resolve`, `--connect-to` and `--unix-socket` (issue 28): the real binary against the TLS
/// endpoint whose certificate names `localhost`, httpbin (which echoes `Host`) and nginx on its
/// Unix socket; certificate checks and pins still judge the URL's host.
@Suite("gannet routing options")
struct CLIRoutingTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    var ca: String { servers.certificates.caBundle }
    var tlsPort: Int { servers.tlsEndpoint(.good).port ?? 0 }
    var httpbinPort: Int { servers.httpbin.port ?? 0 }
    static let wrongPin = "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="

    /// The good leaf's pin, as `gannet pins` prints it.
    func leafPin() async throws -> String {
        let result = try await GannetBinary.run(["pins", servers.certificates.leaf(.good).pem])
        #expect(result.status == 0, "\(result.err)")
        return try #require(result.out.split(separator: " ").first.map(String.init))
    }

    @Test func resolveReachesTheTLSEndpointAndItsPinsStillApply() async throws {
        let pin = try await leafPin()
        let url = "https://localhost:\(tlsPort)/small"
        let entry = "localhost:\(tlsPort):127.0.0.1"
        let pass = try await GannetBinary.run(["--resolve", entry, "--cacert", ca, "--pin", pin, url])
        #expect(pass.status == 0, "\(pass.err)")
        #expect(pass.out == "ok")
        let wrongPin = try await GannetBinary.run(["--resolve", entry, "--cacert", ca, "--pin", Self.wrongPin, url])
        #expect(wrongPin.status == 1, "\(wrongPin.err)")
        // The entry is used: to another loopback address, where nothing listens, it fails.
        let elsewhere = try await GannetBinary.run(["--resolve", "localhost:\(tlsPort):127.0.0.2", "--cacert", ca, url])
        #expect(elsewhere.status == 1, "\(elsewhere.out)")
        #expect(elsewhere.err.hasPrefix("gannet: error: "))
    }

    @Test func resolveGivesAnUnknownNameAnAddressAndTheHostHeaderKeepsIt() async throws {
        let result = try await GannetBinary.run([
            "--resolve", "gannet-resolve.invalid:\(httpbinPort):127.0.0.1", "--check-status",
            "http://gannet-resolve.invalid:\(httpbinPort)/headers",
        ])
        #expect(result.status == 0, "\(result.err)")
        let headers = try #require(try result.json()["headers"] as? [String: Any])
        #expect(headers["Host"] as? String == "gannet-resolve.invalid:\(httpbinPort)")
    }

    @Test func connectToReachesTheEndpointAndTheURLsHostIsVerified() async throws {
        let pin = try await leafPin()
        // localhost:1 has no server; the connection goes to the TLS endpoint, verified for localhost.
        let entry = "localhost:1:127.0.0.1:\(tlsPort)"
        let pass = try await GannetBinary.run([
            "--connect-to", entry, "--cacert", ca, "--pin", pin, "https://localhost:1/small",
        ])
        #expect(pass.status == 0, "\(pass.err)")
        #expect(pass.out == "ok")
        let wrongPin = try await GannetBinary.run([
            "--connect-to", entry, "--cacert", ca, "--pin", Self.wrongPin, "https://localhost:1/small",
        ])
        #expect(wrongPin.status == 1, "\(wrongPin.err)")
    }

    @Test func connectToFromAnotherNameFailsTheHostCheckEvenWithTheRightPin() async throws {
        let pin = try await leafPin()
        let marker = "connect-other-\(UUID().uuidString)"
        let url = "https://gannet-connect.invalid:\(tlsPort)/small?id=\(marker)"
        let entry = "gannet-connect.invalid:\(tlsPort):localhost:\(tlsPort)"
        let verified = try await GannetBinary.run(["--connect-to", entry, "--cacert", ca, url])
        #expect(verified.status == 1, "the certificate names localhost: \(verified.out)")
        let pinned = try await GannetBinary.run(["--connect-to", entry, "--cacert", ca, "--pin", pin, url])
        #expect(pinned.status == 1, "a pin does not excuse the host name: \(pinned.out)")
        #expect(servers.accessLogLines(containing: marker).isEmpty, "nothing may be sent after a refused handshake")
    }

    @Test func connectToKeepsTheURLsHostInTheHostHeader() async throws {
        let result = try await GannetBinary.run([
            "--connect-to", "gannet-connect.invalid:80:127.0.0.1:\(httpbinPort)", "--check-status",
            "http://gannet-connect.invalid/headers",
        ])
        #expect(result.status == 0, "\(result.err)")
        let headers = try #require(try result.json()["headers"] as? [String: Any])
        #expect(headers["Host"] as? String == "gannet-connect.invalid")
    }

    @Test func unixSocketSpeaksToDockersShapeOfAPI() async throws {
        let result = try await GannetBinary.run([
            "--unix-socket", servers.nginxUnixSocket, "--check-status", "http://docker/version",
        ])
        #expect(result.status == 0, "\(result.err)")
        let version = try result.json()
        #expect(version["Version"] as? String == "gannet-test")
        #expect(version["Host"] as? String == "docker")
    }

    @Test(arguments: [
        ["--resolve", "localhost:443"],
        ["--resolve", "localhost:99999:127.0.0.1"],
        ["--resolve", "localhost:443:not-an-address"],
        ["--connect-to", "a:1:b"],
        ["--connect-to", "a:port:b:2"],
        ["--unix-socket", ""],
        ["--unix-socket", "/tmp/" + String(repeating: "s", count: 120)],
    ])
    func badValuesAreUsageErrorsAndNothingIsSent(_ option: [String]) async throws {
        let marker = "bad-routing-\(UUID().uuidString)"
        let result = try await GannetBinary.run(option + ["\(nginx)/echo?id=\(marker)"])
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.contains(option[0]), "\(result.err)")
        #expect(servers.accessLogLines(containing: marker).isEmpty)
    }

    @Test func unixSocketIsGivenOnce() async throws {
        let result = try await GannetBinary.run([
            "--unix-socket", servers.nginxUnixSocket, "--unix-socket", "/tmp/other.sock", "http://docker/version",
        ])
        #expect(result.status == 2, "\(result.err)")
    }
}
