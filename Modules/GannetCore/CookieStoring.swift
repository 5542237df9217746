internal import Synchronization

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Where a session keeps its cookies (``SessionConfiguration/httpCookieStorage``): Gannet's
/// ``CookieJar`` (a new one, in memory, by default), Foundation's `HTTPCookieStorage`, or
/// ``EphemeralCookieStorage``.
///
/// The engine asks the storage for every hop of a request, redirects included, and stores the
/// `Set-Cookie` fields of every response head it reads. It parses each field line and applies
/// RFC 6265bis's rules itself, whatever the storage: one line is one cookie, no `Domain` that
/// is a public suffix, `Secure` and the `__Secure-`/`__Host-` prefixes only from https, the
/// size limits, and the order cookies are sent in (docs/auth-cookies-cache.md, "Cookies").
public protocol CookieStoring: AnyObject, Sendable {
    /// The cookies stored for `url`'s host and path.
    func cookies(for url: URL) -> [HTTPCookie]?
    /// Stores `cookies`, received from `url`.
    func setCookies(_ cookies: [HTTPCookie], for url: URL?, mainDocumentURL: URL?)
    /// Whether cookies are accepted at all: `.never` stores none.
    var cookieAcceptPolicy: HTTPCookie.AcceptPolicy { get }
}

extension HTTPCookieStorage: CookieStoring {}

/// Cookies kept in memory for the life of the object, never written to disk: the storage of
/// ``SessionConfiguration/ephemeral``. (swift-corelibs-foundation's `HTTPCookieStorage` has no
/// public initializer; its group storages are files.) Matching follows RFC 6265 §5.4:
/// ``CookieRules``.
public final class EphemeralCookieStorage: CookieStoring {
    private struct State {
        var cookies: [HTTPCookie] = []
        var policy: HTTPCookie.AcceptPolicy = .always
    }

    // @unchecked: HTTPCookie is an immutable object; the array is only touched under the Mutex.
    private struct Box: @unchecked Sendable { var state = State() }
    private let box = Mutex(Box())

    /// An empty storage.
    public init() {}

    /// Every cookie held, expired ones removed.
    public var cookies: [HTTPCookie] {
        box.withLock { box in
            box.state.cookies.removeAll { CookieRules.isExpired($0) }
            return box.state.cookies
        }
    }

    /// `.always` by default; `.never` stores nothing.
    public var cookieAcceptPolicy: HTTPCookie.AcceptPolicy {
        get { box.withLock { $0.state.policy } }
        set { box.withLock { $0.state.policy = newValue } }
    }

    public func cookies(for url: URL) -> [HTTPCookie]? {
        cookies.filter { CookieRules.matches($0, url: url) }
    }

    /// Stores each cookie in place of one with the same name, domain and path; an expired one
    /// deletes it (how a server removes a cookie).
    public func setCookies(_ cookies: [HTTPCookie], for url: URL?, mainDocumentURL: URL?) {
        box.withLock { box in
            guard box.state.policy != .never else { return }
            for cookie in cookies {
                box.state.cookies.removeAll { CookieRules.sameKey($0, cookie) }
                if !CookieRules.isExpired(cookie) { box.state.cookies.append(cookie) }
            }
        }
    }

    /// Removes every cookie.
    public func removeAll() {
        box.withLock { $0.state.cookies.removeAll() }
    }

    /// Stores cookies read back from a file of this package's own (the CLI's `--session`),
    /// keeping only those a ``CookieJar`` file may hold: the checks of RFC 6265bis §5.6 and §5.7
    /// that do not depend on a request (no control character, no domain cookie for a public
    /// suffix, `__Secure-` and `__Host-` with their requirements). A file written by an older
    /// version, or edited by hand, must not send what the cookie rules refuse
    /// (docs/auth-cookies-cache.md, "Cookies"). Returns how many were dropped.
    @discardableResult
    package func restore(_ cookies: [HTTPCookie]) -> Int {
        let now = Date()
        let sound = cookies.filter { cookie in
            StoredCookie(cookie, created: now).map(CookieFile.isSound) ?? false
        }
        setCookies(sound, for: nil, mainDocumentURL: nil)
        return cookies.count - sound.count
    }
}

/// RFC 6265's matching rules, pure: the engine applies them to whatever a storage returns.
public enum CookieRules {
    /// Whether `cookie` goes with a request to `url`: not expired, its domain and path match
    /// (§5.1.3, §5.1.4), and a `Secure` cookie only over `https`.
    public static func matches(_ cookie: HTTPCookie, url: URL) -> Bool {
        guard let host = url.host?.lowercased(), !isExpired(cookie) else { return false }
        if cookie.isSecure, url.scheme?.lowercased() != "https" { return false }
        // The path as sent: `URL.path` drops a trailing "/", which §5.1.4 needs.
        let path = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPath ?? url.path
        return domainMatches(host: host, cookieDomain: cookie.domain) && pathMatches(path, cookie.path)
    }

    /// §5.1.3. A domain with a leading dot came from a `Domain` attribute and also matches
    /// subdomains (never of an IP address); one without is the host that set it, exactly.
    public static func domainMatches(host: String, cookieDomain: String) -> Bool {
        let domain = cookieDomain.lowercased()
        guard domain.hasPrefix(".") else { return host == domain }
        let bare = String(domain.dropFirst())
        if host == bare { return true }
        let isAddress = host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
        return !isAddress && host.hasSuffix(domain)
    }

    /// §5.1.4: the cookie's path is the request's, or a prefix of it ending at a `/`.
    public static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        let path = requestPath.isEmpty ? "/" : requestPath
        if path == cookiePath { return true }
        guard path.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || path.dropFirst(cookiePath.count).first == "/"
    }

    /// Past its `Expires` or `Max-Age`.
    public static func isExpired(_ cookie: HTTPCookie, now: Date = Date()) -> Bool {
        cookie.expiresDate.map { $0 <= now } ?? false
    }

    /// Same name, domain and path: the later one replaces the earlier (§5.3 step 11).
    static func sameKey(_ a: HTTPCookie, _ b: HTTPCookie) -> Bool {
        a.name == b.name && a.domain.lowercased() == b.domain.lowercased() && a.path == b.path
    }

    /// The `Cookie` field for `url` from `storage`, or `nil` when no cookie goes: RFC 6265bis
    /// §5.8.3 whatever the storage, so the order (longer paths first, then older) and the
    /// field's size limit hold for Foundation's storage too (docs/auth-cookies-cache.md).
    static func header(for url: URL, from storage: any CookieStoring) -> String? {
        if let jar = storage as? CookieJar { return jar.header(for: url) }
        guard let origin = CookieStore.Origin(url) else { return nil }
        let now = Date()
        // Foundation keeps no creation time; the storage's order stands for it.
        let given = (storage.cookies(for: url) ?? []).enumerated().compactMap { offset, cookie in
            StoredCookie(cookie, created: Date(timeIntervalSince1970: Double(offset)))
        }
        var store = CookieStore(cookies: given)
        return store.header(for: origin, now: now)
    }

    /// Stores the `Set-Cookie` fields of a response head from `url` by RFC 6265bis §5.6-5.7:
    /// each field line is one cookie (a comma is data), and the public-suffix, secure-origin,
    /// prefix and size rules apply whatever the storage. A ``CookieJar`` also evicts beyond its
    /// limits; another storage, which the engine cannot evict from, gets no new cookie for a
    /// site whose requests already carry 180 (docs/auth-cookies-cache.md).
    static func store(_ head: ResponseHead, from url: URL, in storage: any CookieStoring) {
        // Most responses set no cookie: ask nothing of the storage or the URL for them.
        let lines = head.fields.values(named: "Set-Cookie")
        guard !lines.isEmpty, storage.cookieAcceptPolicy != .never else { return }
        if let jar = storage as? CookieJar {
            _ = jar.receive(lines, from: url)
            return
        }
        guard let origin = CookieStore.Origin(url) else { return }
        let now = Date()
        let given = (storage.cookies(for: url) ?? []).enumerated().compactMap { offset, cookie in
            StoredCookie(cookie, created: Date(timeIntervalSince1970: Double(offset)))
        }
        var store = CookieStore(cookies: given)
        var cookies: [HTTPCookie] = []
        for line in lines {
            switch store.receive(line, from: origin, now: now, evicting: false) {
            case .stored(let cookie), .deleted(let cookie):
                // A deleted one goes with its past expiry: that is how the storage deletes it.
                if let cookie = cookie.httpCookie { cookies.append(cookie) }
            case .refused:
                continue
            }
        }
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
    }
}
