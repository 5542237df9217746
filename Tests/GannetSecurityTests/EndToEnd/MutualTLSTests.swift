import Foundation
import GannetSecurity
import GannetTestSupport
import Testing

/// Client certificates checked by ``ClientIdentity`` before any request, then presented to the
/// nginx endpoint that requires one.
@Suite("End to end: mutual TLS")
struct MutualTLSTests {
    init() async {
        await TestPKI.prepare()
    }

    private func get(
        with clientCertificate: SessionConfiguration.ClientCertificate?
    ) async throws -> (Handshake, [String]) {
        let servers = try EndToEnd.servers()
        let manager = EndToEnd.manager(DefaultTrustEvaluator(trustStore: try EndToEnd.testCA())) {
            $0.tls.clientCertificate = clientCertificate
        }
        defer { manager.invalidateAndCancel() }
        let (url, marker) = try EndToEnd.markedURL(.mutualTLS)
        let outcome = Handshake(await EndToEnd.get(url, with: manager))
        return (outcome, await servers.accessLogLines(containing: marker, atLeast: outcome.status == nil ? 0 : 1))
    }

    @Test("Accepted with the client identity from PKCS#12 or PEM")
    func accepted() async throws {
        let certificates = try EndToEnd.servers().certificates
        let fromP12 = try ClientIdentity.pkcs12(
            file: certificates.clientPKCS12,
            password: certificates.clientPKCS12Password
        )
        let fromPEM = try ClientIdentity.pem(
            certificateFile: certificates.clientCertificate,
            keyFile: certificates.clientKey
        )
        #expect(fromP12.certificate == fromPEM.certificate)
        for identity in [fromP12, fromPEM] {
            let (outcome, lines) = try await get(with: identity.clientCertificate)
            #expect(outcome == .ok())
            #expect(lines.count == 1)
            #expect(lines.first?.contains("client_cert=\"-\"") == false)
            #expect(lines.first?.contains(identity.certificate.commonName ?? "?") == true)
        }
    }

    @Test("Refused without a client certificate, and with one from a CA nginx does not trust")
    func refused() async throws {
        let (without, withoutLines) = try await get(with: nil)
        #expect(without == .ok(400))
        #expect(withoutLines.first?.contains("client_cert=\"-\"") == true)

        let pki = TestPKI.shared
        let stranger = try ClientIdentity.pem(certificateFile: pki.pem("client"), keyFile: pki.key("client"))
        let (foreign, _) = try await get(with: stranger.clientCertificate)
        #expect(foreign == .ok(400))
    }

    @Test("A wrong password is reported before any request")
    func wrongPassword() throws {
        let certificates = try EndToEnd.servers().certificates
        #expect(throws: ClientIdentityError.self) {
            try ClientIdentity.pkcs12(
                file: certificates.clientPKCS12,
                password: certificates.clientPKCS12Password + "x"
            )
        }
    }
}
