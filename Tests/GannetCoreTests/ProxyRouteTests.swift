import Foundation
import Testing

@testable import GannetCore

/// ``ProxyRoute``: the session's proxy as libcurl's `CURLOPT_PROXY` and `CURLOPT_NOPROXY`, with
/// the environment read by libcurl's rules (lib/url.c, `detect_proxy`). The command's tests
/// run the same rules through a real proxy (CLINetworkOptionTests).
@Suite("ProxyRoute: the environment's proxy, read once")
struct ProxyRouteTests {
    private func route(_ proxy: SessionConfiguration.Proxy, _ environment: [String: String]) -> ProxyRoute {
        ProxyRoute(proxy) { environment[$0] }
    }

    @Test func anHTTPHopReadsOnlyTheLowercaseName() {
        #expect(route(.environment, ["http_proxy": "http://a:1"]).http == "http://a:1")
        // httpoxy (CVE-2016-5385): a CGI program gets a request's `Proxy:` header as HTTP_PROXY.
        #expect(route(.environment, ["HTTP_PROXY": "http://evil:1"]).http == "")
        #expect(route(.environment, ["HTTP_PROXY": "http://evil:1", "all_proxy": "http://b:2"]).http == "http://b:2")
    }

    @Test func anHTTPSHopReadsEitherCase() {
        #expect(route(.environment, ["https_proxy": "http://a:1", "HTTPS_PROXY": "http://b:2"]).https == "http://a:1")
        #expect(route(.environment, ["HTTPS_PROXY": "http://b:2"]).https == "http://b:2")
        #expect(route(.environment, ["https_proxy": "http://a:1"]).http == "", "an https proxy is not an http one")
    }

    @Test func allProxyIsTheFallbackForBoth() {
        let lower = route(.environment, ["all_proxy": "socks5://a:1", "ALL_PROXY": "http://b:2"])
        #expect(lower.http == "socks5://a:1" && lower.https == "socks5://a:1")
        let upper = route(.environment, ["ALL_PROXY": "http://b:2", "http_proxy": "http://c:3"])
        #expect(upper.http == "http://c:3" && upper.https == "http://b:2")
    }

    @Test func anEmptyVariableCountsAsUnset() {
        let route = route(.environment, ["http_proxy": "", "all_proxy": "http://a:1", "no_proxy": "", "NO_PROXY": "x"])
        #expect(route.http == "http://a:1")
        #expect(route.bypass == "x")
        #expect(self.route(.environment, [:]) == ProxyRoute(.none) { _ in nil })
    }

    @Test func theBypassListIsNoProxyThenItsUppercase() {
        #expect(route(.environment, ["no_proxy": "a", "NO_PROXY": "b"]).bypass == "a")
        #expect(route(.environment, ["NO_PROXY": "b"]).bypass == "b")
    }

    @Test func noneIgnoresTheEnvironment() {
        let route = route(.none, ["http_proxy": "http://a:1", "all_proxy": "http://b:2", "no_proxy": "c"])
        #expect(route.http == "" && route.https == "" && route.bypass == "")
        #expect(route.quoted.isEmpty)
    }

    @Test func aGivenProxyServesBothSchemesAndKeepsTheEnvironmentsBypassUnlessGivenOne() throws {
        let proxy = try #require(URL(string: "http://user:pw@proxy:3128"))
        let own = route(.url(proxy, bypass: "internal"), ["http_proxy": "http://a:1", "no_proxy": "c"])
        #expect(own.http == "http://user:pw@proxy:3128" && own.https == own.http)
        #expect(own.bypass == "internal")
        // libcurl applies `no_proxy` to a proxy it was given when no list was set.
        #expect(route(.url(proxy), ["no_proxy": "c"]).bypass == "c")
        #expect(route(.url(proxy), [:]).bypass == "")
    }

    @Test func aHopPicksByTLSAndMessagesQuoteWhatLibcurlGot() {
        let route = route(.environment, ["http_proxy": "http://a:1", "HTTPS_PROXY": "http://b:2"])
        #expect(route.proxy(usesTLS: false) == "http://a:1")
        #expect(route.proxy(usesTLS: true) == "http://b:2")
        #expect(route.quoted == ["http://a:1", "http://b:2"])
        #expect(route.differsByScheme, "so each hop sets its own")
        #expect(!self.route(.environment, ["all_proxy": "http://a:1"]).differsByScheme, "set once per handle")
    }
}
