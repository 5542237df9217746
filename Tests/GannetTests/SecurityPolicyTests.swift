import Foundation
import Gannet
import GannetTestSupport
import Testing

/// AFHTTPSessionManagerTests' security-policy cases: a policy that requires HTTPS (one that
/// pins) is refused with a plain-HTTP base URL or none, where AFNetworking raised "Invalid
/// Security Policy".
@Suite("HTTPSessionManager security policy")
struct SecurityPolicyTests {
    /// An evaluator that accepts everything but, like a pinning policy, requires HTTPS.
    struct RequiresHTTPS: ServerTrustEvaluating {
        func evaluate(_ trust: ServerTrust) throws {}
        var requiresSecureTransport: Bool { true }
    }

    /// An evaluator with the protocol's default: no HTTPS requirement.
    struct AcceptsAll: ServerTrustEvaluating {
        func evaluate(_ trust: ServerTrust) throws {}
    }

    @Test func pinningPolicyWithHTTPSBaseURLIsAccepted() throws {
        let manager = try HTTPSessionManager(
            baseURL: URL(string: "https://example.com"),
            securityPolicy: RequiresHTTPS()
        )
        #expect(manager.securityPolicy is RequiresHTTPS)
        #expect(manager.session.configuration.tls.serverTrustEvaluator is RequiresHTTPS)
    }

    @Test func pinningPolicyWithHTTPBaseURLIsRefused() {
        #expect {
            try HTTPSessionManager(baseURL: URL(string: "http://example.com"), securityPolicy: RequiresHTTPS())
        } throws: { ($0 as? InsecureTransportError)?.reason == .insecureBaseURL }
    }

    @Test func pinningPolicyWithoutBaseURLIsRefused() {
        #expect {
            try HTTPSessionManager(baseURL: nil, securityPolicy: RequiresHTTPS())
        } throws: { ($0 as? InsecureTransportError)?.reason == .noBaseURL }
    }

    @Test func nonPinningPolicyIsAcceptedOverHTTPAndWithoutBaseURL() throws {
        _ = try HTTPSessionManager(baseURL: URL(string: "http://example.com"), securityPolicy: AcceptsAll())
        _ = try HTTPSessionManager(baseURL: nil, securityPolicy: AcceptsAll())
    }

    @Test func errorNeverCarriesCredentials() {
        let error = InsecureTransportError(
            url: URL(string: "http://user:secret@example.com/x"),
            reason: .insecureRequestURL
        )
        #expect(error.url?.absoluteString == "http://example.com/x")
        #expect(!error.description.contains("secret"))
    }

    @Test func defaultManagerHasNoEvaluator() {
        #expect(HTTPSessionManager().securityPolicy == nil)
    }

    @Test func pinningManagerRefusesPlainHTTPRequestsBeforeSendingThem() async throws {
        let servers = try TestServers.shared()
        var configuration = SessionConfiguration.default
        configuration.tls.serverTrustEvaluator = RequiresHTTPS()
        let manager = HTTPSessionManager(baseURL: servers.nginxTLS, configuration: configuration)
        manager.completionQueue = CompletionQueue.make()
        let marker = "refused-\(UUID().uuidString)"
        let plain = servers.nginx.appendingPathComponent("small").absoluteString + "?id=\(marker)"
        let delivery = await deliver { success, failure in
            manager.GET(plain, success: success, failure: failure)
        }
        #expect(delivery.returnedTask == nil)
        #expect(delivery.onCompletionQueue)
        #expect((delivery.error as? InsecureTransportError)?.reason == .insecureRequestURL)
        #expect(servers.accessLogLines(containing: marker).isEmpty)
        await #expect(throws: InsecureTransportError.self) { try await manager.get(plain) }
    }

    @Test func evaluatorFromTheInitializerDecidesTrust() async throws {
        struct Rejects: ServerTrustEvaluating {
            struct Rejected: Error {}
            func evaluate(_ trust: ServerTrust) throws { throw Rejected() }
            var requiresSecureTransport: Bool { true }
        }
        let servers = try TestServers.shared()
        let manager = try HTTPSessionManager(baseURL: servers.nginxTLS, securityPolicy: Rejects())
        await #expect { try await manager.get("small") } throws: {
            ($0 as? URLError)?.code == .serverCertificateUntrusted
        }
    }
}
