import Foundation
import Gannet
import GannetSecurity
import GannetTestSupport
import Testing

/// HTTPSessionManager with GannetSecurity's SecurityPolicy: AFHTTPSessionManagerTests' policy
/// cases with the real policy, and pinning against the test nginx.
@Suite("HTTPSessionManager with SecurityPolicy")
struct SecurityPolicyIntegrationTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    func certificate(_ path: String) throws -> Data {
        try #require(try Certificate.certificates(contentsOf: URL(fileURLWithPath: path)).first).derEncoded
    }

    @Test(arguments: [SecurityPolicy.PinningMode.publicKey, .certificate])
    func pinningPolicyNeedsAnHTTPSBaseURL(_ mode: SecurityPolicy.PinningMode) throws {
        let policy = SecurityPolicy(pinningMode: mode, withPinnedCertificates: [])
        #expect(throws: InsecureTransportError.self) {
            try HTTPSessionManager(baseURL: URL(string: "http://example.com"), securityPolicy: policy)
        }
        #expect(throws: InsecureTransportError.self) { try HTTPSessionManager(baseURL: nil, securityPolicy: policy) }
        _ = try HTTPSessionManager(baseURL: URL(string: "https://example.com"), securityPolicy: policy)
    }

    @Test func defaultPolicyIsAcceptedWithHTTP() throws {
        _ = try HTTPSessionManager(baseURL: URL(string: "http://example.com"), securityPolicy: SecurityPolicy.default)
        _ = try HTTPSessionManager(baseURL: nil, securityPolicy: SecurityPolicy.default)
    }

    @Test func publicKeyPinningPassesWithTheRightKeyAndRefusesAnother() async throws {
        var policy = SecurityPolicy(
            pinningMode: .publicKey,
            withPinnedCertificates: [try certificate(servers.certificates.leaf(.good).pem)]
        )
        policy.trustStore = try .caFile(servers.certificates.caBundle)
        let manager = try HTTPSessionManager(baseURL: servers.nginxTLS, securityPolicy: policy)
        manager.responseSerializer = StringResponseSerializer()
        #expect(try await manager.get("small").value as? String == "ok")

        var wrong = SecurityPolicy(
            pinningMode: .publicKey,
            withPinnedCertificates: [try certificate(servers.certificates.leaf(.rsa).pem)]
        )
        wrong.trustStore = try .caFile(servers.certificates.caBundle)
        let refused = try HTTPSessionManager(baseURL: servers.nginxTLS, securityPolicy: wrong)
        let marker = "policy-\(UUID().uuidString)"
        await #expect { try await refused.get("small", parameters: ["id": marker]) } throws: {
            ($0 as? URLError)?.code == .serverCertificateUntrusted
        }
        #expect(servers.accessLogLines(containing: marker).isEmpty)
    }

    @Test func certificatePinningRequiresAPinnedCertificateInAValidChain() async throws {
        var policy = SecurityPolicy(
            pinningMode: .certificate,
            withPinnedCertificates: [try certificate(servers.certificates.intermediateCA)]
        )
        policy.trustStore = try .caFile(servers.certificates.caBundle)
        let manager = try HTTPSessionManager(baseURL: servers.nginxTLS, securityPolicy: policy)
        manager.responseSerializer = StringResponseSerializer()
        #expect(try await manager.get("small").value as? String == "ok")

        // AFNetworking's order: the chain is validated against the store first.
        let systemStore = try HTTPSessionManager(
            baseURL: servers.nginxTLS,
            securityPolicy: SecurityPolicy(
                pinningMode: .certificate,
                withPinnedCertificates: [try certificate(servers.certificates.intermediateCA)]
            )
        )
        await #expect { try await systemStore.get("small") } throws: {
            ($0 as? URLError)?.code == .serverCertificateHasUnknownRoot
        }
    }
}
