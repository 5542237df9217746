import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Redirects, followed by Gannet")
struct RedirectTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    private func redirect(to target: URL, status: Int, via base: URL) -> URL {
        var components = URLComponents(url: base.adding("/redirect-to"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "url", value: target.absoluteString),
            URLQueryItem(name: "status_code", value: "\(status)"),
        ]
        return components.url!
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func crossOriginRedirectStripsCredentials(status: Int) async throws {
        // httpbinAlt is the same server on another port: another origin.
        var request = URLRequest(
            url: redirect(to: servers.httpbinAlt.adding("/anything"), status: status, via: servers.httpbin)
        )
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        request.setValue("session=secret", forHTTPHeaderField: "Cookie")
        request.setValue("Basic c2VjcmV0", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("kept", forHTTPHeaderField: "X-Custom")
        let response = await perform(SessionManager(), request)
        #expect(response.error == nil)
        #expect(response.response?.url?.port == servers.httpbinAlt.port)
        #expect(response.metrics?.redirectCount == 1)
        let headers = try #require(try json(response.data)["headers"] as? [String: String])
        #expect(headers["Authorization"] == nil)
        #expect(headers["Cookie"] == nil)
        #expect(headers["Proxy-Authorization"] == nil)
        #expect(headers["X-Custom"] == "kept")
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func sameOriginRedirectKeepsCredentials(status: Int) async throws {
        var request = URLRequest(
            url: redirect(to: servers.httpbin.adding("/headers"), status: status, via: servers.httpbin)
        )
        request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
        let response = await perform(SessionManager(), request)
        let headers = try #require(try json(response.data)["headers"] as? [String: String])
        #expect(headers["Authorization"] == "Bearer secret")
    }

    @Test(arguments: [(301, "GET"), (302, "GET"), (303, "GET"), (307, "POST"), (308, "POST")])
    func postRedirectMethodRules(status: Int, expectedMethod: String) async throws {
        var request = URLRequest(
            url: redirect(to: servers.httpbin.adding("/anything"), status: status, via: servers.httpbin)
        )
        request.httpMethod = "POST"
        request.httpBody = Data("a=1".utf8)
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        let response = await perform(SessionManager(), request)
        let echoed = try json(response.data)
        #expect(echoed["method"] as? String == expectedMethod)
        let headers = try #require(echoed["headers"] as? [String: String])
        if expectedMethod == "GET" {
            #expect(headers["Content-Type"] == nil)
            #expect((echoed["form"] as? [String: String])?.isEmpty ?? true)
        } else {
            #expect((echoed["form"] as? [String: String]) == ["a": "1"])
        }
    }

    @Test func redirectChainIsFollowedToTheEnd() async throws {
        let response = await perform(SessionManager(), URLRequest(url: servers.httpbin.adding("/redirect/5")))
        #expect(response.response?.statusCode == 200)
        #expect(response.metrics?.redirectCount == 5)
        #expect(response.response?.url?.path == "/get")
    }

    @Test func redirectLimitIsEnforced() async throws {
        var configuration = SessionConfiguration.default
        configuration.redirects = .follow(max: 3)
        let response = await perform(
            SessionManager(configuration: configuration),
            URLRequest(url: servers.httpbin.adding("/redirect/5"))
        )
        #expect((response.error as? URLError)?.code == .httpTooManyRedirects)
        #expect(gannetCode(response.error) == .tooManyRedirects)
    }

    @Test func disallowedRedirectsDeliverTheThreeHundred() async throws {
        var configuration = SessionConfiguration.default
        configuration.redirects = .disallow
        let response = await perform(
            SessionManager(configuration: configuration),
            URLRequest(url: servers.httpbin.adding("/redirect/1"))
        )
        #expect(response.error == nil)
        #expect(response.response?.statusCode == 302)
    }

    @Test func hookMayRewriteOrRefuseARedirect() async throws {
        let manager = SessionManager()
        manager.setTaskWillPerformHTTPRedirection { _, _, response, proposed in
            guard response.statusCode == 302 else { return proposed }
            if proposed.url?.path == "/get" { return nil }
            var rewritten = proposed
            rewritten.setValue("rewritten", forHTTPHeaderField: "X-Hook")
            return rewritten
        }
        let refused = await perform(manager, URLRequest(url: servers.httpbin.adding("/redirect/1")))
        #expect(refused.response?.statusCode == 302)
        let target = servers.httpbin.adding("/headers")
        let rewritten = await perform(manager, URLRequest(url: redirect(to: target, status: 302, via: servers.httpbin)))
        let headers = try #require(try json(rewritten.data)["headers"] as? [String: String])
        #expect(headers["X-Hook"] == "rewritten")
        #expect(rewritten.request?.url?.path == "/headers")
    }

    @Test func redirectToFileSchemeIsRefused() async throws {
        let response = await perform(
            SessionManager(),
            URLRequest(url: servers.url(.redirect(to: "file:///etc/passwd")))
        )
        #expect((response.error as? URLError)?.code == .unsupportedURL)
        #expect(gannetCode(response.error) == .unsupportedScheme)
    }
}
