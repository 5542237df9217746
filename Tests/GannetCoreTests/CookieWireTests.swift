import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 24, class 2: cookies judged by RFC 6265bis on the wire, whatever the storage. The fault
/// server's `/cookies/` routes send `Set-Cookie` lines byte for byte and answer with the Cookie
/// field they received; the forward proxy stands in for sites under real public suffixes.
@Suite("Cookies by RFC 6265bis, on the wire")
final class CookieWireTests {
    let servers: TestServers
    /// The group containers this test's Foundation storages were named for: each keeps its
    /// persistent cookies in a file of its own under `$XDG_DATA_HOME`, removed when the test ends.
    private let containers = Mutex<[String]>([])
    init() throws { servers = try TestServers.shared() }

    deinit { FoundationCookieFile.remove(containers.withLock { $0 }) }

    /// Every kind of storage the engine must judge cookies for (its rules are its own):
    /// Gannet's jar, an ephemeral storage, and Foundation's file-backed `HTTPCookieStorage`.
    private func storage(_ kind: Int) -> any CookieStoring {
        switch kind {
        case 0: return CookieJar()
        case 1: return EphemeralCookieStorage()
        default:
            let (storage, container) = FoundationCookieFile.make()
            containers.withLock { $0.append(container) }
            return storage
        }
    }

    private func manager(_ storage: any CookieStoring, proxy: Bool = false) -> SessionManager {
        var configuration = SessionConfiguration.default
        configuration.httpCookieStorage = storage
        configuration.redirects = .follow(max: 40)
        configuration.tls.caFile = servers.certificates.caBundle
        if proxy { configuration.proxy = .url(servers.proxy) }
        return SessionManager(configuration: configuration)
    }

    /// `http://HOST:fault-port/PATH`, for a stand-in host the proxy maps to loopback.
    private func fault(_ host: String, _ path: String) throws -> URL {
        let port = try #require(servers.fault.port)
        return try #require(URL(string: "http://\(host):\(port)\(path)"))
    }

    /// Sends `lines` as `Set-Cookie` from `url` (a `/cookies/` route), returning the body: the
    /// Cookie field that request carried.
    @discardableResult
    private func set(_ lines: [String], at url: URL, with manager: SessionManager) async throws -> String {
        var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: true))
        components.queryItems = [URLQueryItem(name: "lines", value: lines.joined(separator: "\n"))]
        // `+` and `;` stay literal in a query; make them arrive as sent.
        components.percentEncodedQuery = components.percentEncodedQuery?
            .replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: ";", with: "%3B")
        return try await sent(to: try #require(components.url), with: manager)
    }

    /// The Cookie field a request to `url` carried, as the server echoed it.
    private func sent(to url: URL, with manager: SessionManager) async throws -> String {
        let response = await manager.response(for: URLRequest(url: url), serializer: .passthrough)
        #expect(response.response?.statusCode == 200, "\(url): \(String(describing: response.error))")
        return String(decoding: response.data ?? Data(), as: UTF8.self)
    }

    /// `attacker.com` sets `Domain=.com`, `attacker.co.uk` sets `Domain=co.uk`: public suffixes,
    /// so the cookies are refused and never reach `bank.com` or `bank.co.uk`; a `Domain` that is
    /// the site's own still covers it (libpsl, §5.7 step 9).
    @Test(arguments: 0..<3)
    func aPublicSuffixDomainIsRefusedThroughTheProxy(storage: Int) async throws {
        let manager = manager(self.storage(storage), proxy: true)
        defer { manager.invalidateAndCancel() }
        try await set(["psl=1; Domain=.com; Path=/"], at: fault("attacker.com", "/cookies/set"), with: manager)
        try await set(["uk=1; Domain=co.uk; Path=/"], at: fault("attacker.co.uk", "/cookies/set"), with: manager)
        try await set(
            ["site=1; Domain=attacker.com; Path=/"],
            at: fault("www.attacker.com", "/cookies/set"),
            with: manager
        )
        #expect(try await sent(to: fault("bank.com", "/cookies/echo"), with: manager) == "")
        #expect(try await sent(to: fault("bank.co.uk", "/cookies/echo"), with: manager) == "")
        #expect(try await sent(to: fault("attacker.com", "/cookies/echo"), with: manager) == "site=1")
    }

    /// A plain-http response may not set `Secure` (`Secure=x` included), `__Secure-` or
    /// `__Host-` cookies (§5.7 steps 13, 20, 21): the https origin on the same host gets only
    /// the plain one.
    @Test(arguments: 0..<3)
    func secureAndPrefixedCookiesFromPlainHTTPAreRefused(storage: Int) async throws {
        let manager = manager(self.storage(storage))
        defer { manager.invalidateAndCancel() }
        let lines = [
            "s=1; Secure; Path=/", "sx=1; Secure=x; Path=/", "__Secure-a=1; Secure; Path=/",
            "__Host-b=1; Secure; Path=/", "plain=1; Path=/",
        ]
        try await set(lines, at: fault("localhost", "/cookies/set"), with: manager)
        #expect(try await sent(to: servers.nginxTLS.adding("/cookie-header"), with: manager) == "plain=1")
    }

    /// `Secure=x` is `Secure` (§5.6.5: the attribute's name decides): set over https, it goes
    /// back over https and never over plain http to the same host.
    @Test(arguments: 0..<3)
    func secureWithAValueIsSecure(storage: Int) async throws {
        let manager = manager(self.storage(storage))
        defer { manager.invalidateAndCancel() }
        _ = try await sent(to: servers.nginxTLS.adding("/cookie-secure-x"), with: manager)
        #expect(try await sent(to: servers.nginxTLS.adding("/cookie-header"), with: manager) == "sx=1")
        #expect(try await sent(to: fault("localhost", "/cookies/echo"), with: manager) == "")
    }

    /// Each hop of a 12-hop redirect chain sets a 4000-byte cookie: 48 KB of Cookie field
    /// without a cap. The field stays within 8190 bytes (libcurl's cap), so the site keeps
    /// working; the most recent cookies of equal path are the ones left out.
    @Test(arguments: 0..<3)
    func aRedirectChainCannotGrowTheCookieFieldPastTheCap(storage: Int) async throws {
        let manager = manager(self.storage(storage))
        defer { manager.invalidateAndCancel() }
        let field = try await sent(to: fault("localhost", "/cookies/chain/12?size=4000&count=1"), with: manager)
        #expect(field.utf8.count <= 8190, "\(field.utf8.count) bytes of Cookie field")
        if storage < 2 { #expect(field.hasPrefix("hop12_0="), "\(field.prefix(40))") }
    }

    /// 200 cookies in one response: at most 180 a site are kept (Chrome's limit), and a cookie
    /// whose name and value pass 4096 bytes is refused (§5.6 step 5) while 4096 is kept.
    @Test(arguments: 0..<3)
    func cookieCountAndSizeAreCapped(storage: Int) async throws {
        let manager = manager(self.storage(storage))
        defer { manager.invalidateAndCancel() }
        try await set((0..<200).map { "n\($0)=v; Path=/" }, at: fault("localhost", "/cookies/set"), with: manager)
        let field = try await sent(to: fault("localhost", "/cookies/echo"), with: manager)
        let count = field.split(separator: ";").count
        #expect(count <= 180 && count >= 100, "\(count) cookies sent")
        let manager2 = self.manager(self.storage(storage))
        defer { manager2.invalidateAndCancel() }
        let big = "big=" + String(repeating: "b", count: 4094)  // name + value = 4097
        let fits = "fit=" + String(repeating: "f", count: 4093)  // name + value = 4096
        try await set(["\(big); Path=/", "\(fits); Path=/"], at: fault("localhost", "/cookies/set"), with: manager2)
        #expect(try await sent(to: fault("localhost", "/cookies/echo"), with: manager2) == fits)
    }

    /// One `Set-Cookie` line is one cookie: a comma in the value and in an `Expires` date is
    /// data, not a separator (Foundation's `HTTPCookie` splits at it).
    @Test(arguments: 0..<3)
    func aCommaInsideOneLineIsOneCookie(storage: Int) async throws {
        let manager = manager(self.storage(storage))
        defer { manager.invalidateAndCancel() }
        let lines = ["a=1,b=2; Path=/", "e=v; Expires=Wed, 09 Jun 2100 10:18:14 GMT; Path=/"]
        try await set(lines, at: fault("localhost", "/cookies/set"), with: manager)
        let field = try await sent(to: fault("localhost", "/cookies/echo"), with: manager)
        // Foundation's storage keeps no creation time, so its order is its own.
        let parts = storage == 2 ? field.components(separatedBy: "; ").sorted() : field.components(separatedBy: "; ")
        #expect(parts == ["a=1,b=2", "e=v"], "\(field)")
    }

    /// An empty `Domain=` is ignored (§5.6.3): a host-only cookie for `localhost`, never sent to
    /// `127.0.0.1`.
    @Test(arguments: 0..<3)
    func anEmptyDomainMakesAHostOnlyCookie(storage: Int) async throws {
        let manager = manager(self.storage(storage))
        defer { manager.invalidateAndCancel() }
        try await set(["ed=1; Domain=; Path=/"], at: fault("localhost", "/cookies/set"), with: manager)
        #expect(try await sent(to: fault("localhost", "/cookies/echo"), with: manager) == "ed=1")
        #expect(try await sent(to: fault("127.0.0.1", "/cookies/echo"), with: manager) == "")
    }

    /// §5.1.4 with a trailing `/`: a cookie set from `/cookies/dir/sub/` without `Path` has the
    /// default path `/cookies/dir/sub` (not `/cookies/dir`), and a `Path=/cookies/p/` cookie goes
    /// to `/cookies/p/` (`URL.path` drops that slash).
    @Test(arguments: 0..<2)
    func pathMatchingKeepsATrailingSlash(storage: Int) async throws {
        let manager = manager(self.storage(storage))
        defer { manager.invalidateAndCancel() }
        try await set(["d=1", "p=1; Path=/cookies/p/"], at: fault("localhost", "/cookies/dir/sub/"), with: manager)
        #expect(try await sent(to: fault("localhost", "/cookies/dir/sub/x"), with: manager) == "d=1")
        #expect(try await sent(to: fault("localhost", "/cookies/dir/other"), with: manager) == "")
        #expect(try await sent(to: fault("localhost", "/cookies/p/"), with: manager) == "p=1")
    }

    /// §5.8.3 step 2: longer paths first, then earlier creation.
    @Test(arguments: 0..<2)
    func cookiesGoLongestPathFirstThenOldest(storage: Int) async throws {
        let manager = manager(self.storage(storage))
        defer { manager.invalidateAndCancel() }
        let lines = ["a=1; Path=/", "b=2; Path=/cookies/x/y", "c=3; Path=/cookies/x", "d=4; Path=/"]
        try await set(lines, at: fault("localhost", "/cookies/set"), with: manager)
        #expect(try await sent(to: fault("localhost", "/cookies/x/y/z"), with: manager) == "b=2; c=3; a=1; d=4")
    }

    /// Issue 24, class 3: two managers made from the default configuration share no cookie,
    /// and none reaches `HTTPCookieStorage.shared` (the file other programs load).
    @Test func theDefaultStorageIsPrivateAndInMemory() async throws {
        let name = "private\(UUID().uuidString.prefix(8))"
        let one = SessionManager(configuration: .default)
        let two = SessionManager(configuration: .default)
        defer {
            one.invalidateAndCancel()
            two.invalidateAndCancel()
        }
        try await set(["\(name)=1; Max-Age=3600; Path=/"], at: fault("localhost", "/cookies/set"), with: one)
        #expect(try await sent(to: fault("localhost", "/cookies/echo"), with: one) == "\(name)=1")
        #expect(try await sent(to: fault("localhost", "/cookies/echo"), with: two) == "")
        #expect(!(HTTPCookieStorage.shared.cookies ?? []).contains { $0.name == name })
    }
}
