import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 12: cookies through the configuration's storage, against httpbin: kept across tasks and
/// across a redirect chain, never sent to a host they do not match, and not at all when the
/// request or the storage says no.
@Suite("Cookies")
struct CookieTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    private func manager(_ storage: (any CookieStoring)? = EphemeralCookieStorage()) -> SessionManager {
        var configuration = SessionConfiguration.default
        configuration.httpCookieStorage = storage
        return SessionManager(configuration: configuration)
    }

    /// What httpbin's `/cookies` received, on `base`'s host.
    private func cookiesSeen(
        _ manager: SessionManager,
        on base: URL? = nil,
        handling: Bool = true
    ) async throws
        -> [String: String]
    {
        var request = URLRequest(url: (base ?? servers.httpbin).adding("/cookies"))
        request.httpShouldHandleCookies = handling
        let response = await manager.response(for: request, serializer: .passthrough)
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        return try json(response.data)["cookies"] as? [String: String] ?? [:]
    }

    /// `/response-headers` answers with the `Set-Cookie` it is given, without redirecting.
    private func set(
        _ cookie: String,
        with manager: SessionManager,
        on base: URL? = nil,
        handling: Bool = true
    )
        async throws
    {
        var components = try #require(
            URLComponents(url: (base ?? servers.httpbin).adding("/response-headers"), resolvingAgainstBaseURL: true)
        )
        components.queryItems = [URLQueryItem(name: "Set-Cookie", value: cookie)]
        var request = URLRequest(url: try #require(components.url))
        request.httpShouldHandleCookies = handling
        let response = await manager.response(for: request, serializer: .passthrough)
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
    }

    @Test func aCookieSetByOneTaskGoesWithTheNext() async throws {
        let manager = manager()
        defer { manager.invalidateAndCancel() }
        try await set("k=v; Path=/", with: manager)
        #expect(try await cookiesSeen(manager) == ["k": "v"])
    }

    /// `/cookies/set?a=1&b=2` answers 302 to `/cookies` with both cookies: the second hop
    /// carries what the first one's response set.
    @Test func aRedirectChainCarriesTheCookiesEachHopSet() async throws {
        let storage = EphemeralCookieStorage()
        let manager = manager(storage)
        defer { manager.invalidateAndCancel() }
        let response = await manager.response(
            for: URLRequest(url: servers.httpbin.adding("/cookies/set?a=1&b=2")),
            serializer: .passthrough
        )
        #expect(response.response?.url?.path == "/cookies")
        #expect(try json(response.data)["cookies"] as? [String: String] == ["a": "1", "b": "2"])
        #expect(Set(storage.cookies.map(\.name)) == ["a", "b"])
    }

    /// Cookies of 127.0.0.1 never go to localhost, asked directly or reached by a redirect.
    @Test func aCookieNeverGoesToAHostItDoesNotMatch() async throws {
        let manager = manager()
        defer { manager.invalidateAndCancel() }
        try await set("k=v; Path=/", with: manager)
        let port = try #require(servers.httpbin.port)
        let localhost = try #require(URL(string: "http://localhost:\(port)/"))
        #expect(try await cookiesSeen(manager, on: localhost) == [:])

        var components = try #require(
            URLComponents(url: servers.httpbin.adding("/redirect-to"), resolvingAgainstBaseURL: true)
        )
        components.queryItems = [URLQueryItem(name: "url", value: localhost.adding("/cookies").absoluteString)]
        let redirected = await manager.response(
            for: URLRequest(url: try #require(components.url)),
            serializer: .passthrough
        )
        #expect(redirected.response?.url?.host == "localhost")
        #expect(try json(redirected.data)["cookies"] as? [String: String] == [:])
        // And back on 127.0.0.1, it is still there.
        #expect(try await cookiesSeen(manager) == ["k": "v"])
    }

    @Test func httpShouldHandleCookiesFalseNeitherSendsNorStores() async throws {
        let storage = EphemeralCookieStorage()
        let manager = manager(storage)
        defer { manager.invalidateAndCancel() }
        try await set("refused=1; Path=/", with: manager, handling: false)
        #expect(storage.cookies.isEmpty)
        try await set("k=v; Path=/", with: manager)
        #expect(try await cookiesSeen(manager, handling: false) == [:])
        #expect(try await cookiesSeen(manager) == ["k": "v"])
    }

    @Test func aStorageThatAcceptsNoCookieStoresNone() async throws {
        let storage = EphemeralCookieStorage()
        storage.cookieAcceptPolicy = .never
        let manager = manager(storage)
        defer { manager.invalidateAndCancel() }
        try await set("k=v; Path=/", with: manager)
        #expect(storage.cookies.isEmpty)
        #expect(try await cookiesSeen(manager) == [:])
    }

    @Test func withoutAStorageNoCookieIsKept() async throws {
        let manager = manager(nil)
        defer { manager.invalidateAndCancel() }
        let response = await manager.response(
            for: URLRequest(url: servers.httpbin.adding("/cookies/set?k=v")),
            serializer: .passthrough
        )
        #expect(try json(response.data)["cookies"] as? [String: String] == [:])
    }

    /// A `Secure` cookie is not sent over plain `http` (swift-corelibs-foundation's storage
    /// returns it; Gannet filters it out), and an expired `Set-Cookie` deletes the cookie.
    @Test func secureCookiesStayOffHTTPAndExpiredOnesAreDeleted() async throws {
        let foundation = FoundationCookieFile.make()
        defer { FoundationCookieFile.remove([foundation.container]) }
        for storage in [EphemeralCookieStorage() as any CookieStoring, foundation.storage] {
            let manager = manager(storage)
            defer { manager.invalidateAndCancel() }
            try await set("s=1; Path=/; Secure", with: manager)
            try await set("k=v; Path=/", with: manager)
            #expect(try await cookiesSeen(manager) == ["k": "v"], "\(type(of: storage))")
            try await set("k=gone; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT", with: manager)
            #expect(try await cookiesSeen(manager) == [:], "\(type(of: storage))")
        }
    }

    /// `Max-Age=0` deletes (swift-corelibs-foundation ignores the attribute), a positive one
    /// keeps the cookie, and a `Domain` that is the tail of the server's IP address is ignored.
    @Test func maxAgeDecidesExpiryAndAnIPAddressTakesNoDomain() async throws {
        let storage = EphemeralCookieStorage()
        let manager = manager(storage)
        defer { manager.invalidateAndCancel() }
        try await set("k=v; Path=/; Max-Age=3600", with: manager)
        #expect(try await cookiesSeen(manager) == ["k": "v"])
        let expiry = try #require(storage.cookies.first?.expiresDate)
        #expect(expiry > Date().addingTimeInterval(3000) && expiry < Date().addingTimeInterval(3700))
        try await set("k=v; Path=/; Max-Age=0", with: manager)
        #expect(try await cookiesSeen(manager) == [:])
        try await set("ip=1; Path=/; Domain=0.0.1", with: manager)
        #expect(storage.cookies.isEmpty)
        #expect(try await cookiesSeen(manager) == [:])
    }

    @Test func aCallersCookieHeaderWins() async throws {
        let manager = manager()
        defer { manager.invalidateAndCancel() }
        try await set("k=v; Path=/", with: manager)
        var request = URLRequest(url: servers.httpbin.adding("/cookies"))
        request.setValue("mine=1", forHTTPHeaderField: "Cookie")
        let response = await manager.response(for: request, serializer: .passthrough)
        #expect(try json(response.data)["cookies"] as? [String: String] == ["mine": "1"])
    }

    /// Issue 24: the default is a jar of the configuration's own, as `.ephemeral`'s, never
    /// `HTTPCookieStorage.shared` (CookieWireTests/theDefaultStorageIsPrivateAndInMemory shows
    /// it on the wire).
    @Test func theDefaultAndEphemeralAreEachAJarOfTheirOwn() {
        let defaults = (SessionConfiguration.default.httpCookieStorage, SessionConfiguration().httpCookieStorage)
        #expect(defaults.0 is CookieJar && defaults.0 !== defaults.1 && defaults.0 !== HTTPCookieStorage.shared)
        let one = SessionConfiguration.ephemeral.httpCookieStorage
        let two = SessionConfiguration.ephemeral.httpCookieStorage
        #expect(one is CookieJar && one !== two)
    }

    // MARK: The rules, without a server

    @Test(arguments: [
        ("example.com", "example.com", true), ("www.example.com", "example.com", false),
        ("www.example.com", ".example.com", true), ("example.com", ".example.com", true),
        ("badexample.com", ".example.com", false), ("127.0.0.1", ".0.0.1", false), ("127.0.0.1", "127.0.0.1", true),
    ])
    func domainMatching(host: String, domain: String, matches: Bool) {
        #expect(CookieRules.domainMatches(host: host, cookieDomain: domain) == matches)
    }

    @Test(arguments: [
        ("/", "/", true), ("/a/b", "/a", true), ("/ab", "/a", false), ("/a/", "/a/", true), ("/a/b", "/a/", true),
        ("", "/", true), ("/b", "/a", false),
    ])
    func pathMatching(path: String, cookiePath: String, matches: Bool) {
        #expect(CookieRules.pathMatches(path, cookiePath) == matches)
    }
}
