import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 16, defect 5: an evaluator that requires HTTPS is enforced by the core, where it lives.
@Suite("Secure transport required by the trust evaluator")
struct SecureTransportTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// Trusts everything, but only over HTTPS: what a pinning evaluator says of itself.
    struct HTTPSOnly: ServerTrustEvaluating {
        func evaluate(_ trust: ServerTrust) throws {}
        var requiresSecureTransport: Bool { true }
    }

    @Test func aPlainHTTPRequestIsRefusedBeforeAnyByteIsSent() async throws {
        let manager = testManager(servers) { $0.tls.serverTrustEvaluator = HTTPSOnly() }
        let marker = UUID().uuidString
        let response = await perform(manager, URLRequest(url: servers.nginx.adding("/echo?\(marker)")))
        #expect(gannetCode(response.error) == .insecureTransport, "\(String(describing: response.error))")
        #expect(response.response == nil)
        #expect(servers.accessLogLines(containing: marker).isEmpty, "nothing may reach the server in clear")
    }

    @Test func aRedirectToPlainHTTPIsRefusedEvenWhenThePolicyAllowsIt() async throws {
        let manager = testManager(servers) {
            $0.tls.serverTrustEvaluator = HTTPSOnly()
            $0.redirects.allowsHTTPSToHTTP = true
        }
        let marker = UUID().uuidString
        let target = servers.nginx.adding("/echo?\(marker)").absoluteString
        let response = await perform(
            manager,
            URLRequest(url: servers.tlsEndpoint(.good).adding("/redirect/302?to=\(target)"))
        )
        #expect(gannetCode(response.error) == .insecureTransport, "\(String(describing: response.error))")
        // The https hop that redirected carries the marker in its query; the http one must not exist.
        #expect(
            servers.accessLogLines(containing: "GET /echo?\(marker)").isEmpty,
            "nothing may reach the server in clear"
        )
    }

    @Test func httpsStillWorks() async throws {
        let manager = testManager(servers) { $0.tls.serverTrustEvaluator = HTTPSOnly() }
        let response = await perform(
            manager,
            URLRequest(url: servers.tlsEndpoint(.good).adding("/echo?\(UUID().uuidString)"))
        )
        #expect(response.response?.statusCode == 200)
    }
}
