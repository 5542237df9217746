internal import Synchronization

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Where a session keeps its cookies (``SessionConfiguration/httpCookieStorage``): Foundation's
/// `HTTPCookieStorage` (the shared one by default, as URLSession's default configuration) or
/// Gannet's in-memory ``EphemeralCookieStorage``.
///
/// The engine asks the storage for every hop of a request, redirects included, and stores the
/// `Set-Cookie` fields of every response head it reads; on top of the storage it applies
/// RFC 6265's rules itself (``CookieRules``), because swift-corelibs-foundation's storage
/// returns `Secure` cookies for `http` URLs (docs/auth-cookies-cache.md).
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
}

/// RFC 6265's matching rules, pure: the engine applies them to whatever a storage returns.
public enum CookieRules {
    /// Whether `cookie` goes with a request to `url`: not expired, its domain and path match
    /// (§5.1.3, §5.1.4), and a `Secure` cookie only over `https`.
    public static func matches(_ cookie: HTTPCookie, url: URL) -> Bool {
        guard let host = url.host?.lowercased(), !isExpired(cookie) else { return false }
        if cookie.isSecure, url.scheme?.lowercased() != "https" { return false }
        return domainMatches(host: host, cookieDomain: cookie.domain) && pathMatches(url.path, cookie.path)
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

    /// The `Cookie` field for `url` from `storage`, or `nil` when no cookie matches.
    static func header(for url: URL, from storage: any CookieStoring) -> String? {
        let cookies = (storage.cookies(for: url) ?? []).filter { matches($0, url: url) }
        guard !cookies.isEmpty else { return nil }
        return cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    /// Stores the `Set-Cookie` fields of a response head from `url`, one field at a time (a
    /// merged value would split an `Expires` date at its comma), unless the policy refuses.
    static func store(_ head: ResponseHead, from url: URL, in storage: any CookieStoring) {
        // Most responses set no cookie: ask nothing of the storage or the URL for them.
        let setCookies = head.fields.filter { ASCII.equalsIgnoringCase($0.name, "set-cookie") }
        guard !setCookies.isEmpty, storage.cookieAcceptPolicy != .never, let host = url.host?.lowercased() else {
            return
        }
        var cookies: [HTTPCookie] = []
        for field in setCookies {
            for cookie in HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": field.value], for: url) {
                // §5.3 step 6: a Domain the host does not match (another site, or the tail of
                // an IP address, which swift-corelibs-foundation accepts) is ignored.
                guard domainMatches(host: host, cookieDomain: cookie.domain) else { continue }
                cookies.append(applyingMaxAge(cookie))
            }
        }
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
    }

    /// §5.3 step 3: `Max-Age` wins over `Expires`, and 0 or less expires the cookie at once.
    /// swift-corelibs-foundation keeps the attribute in `properties` but never turns it into
    /// an expiry date, so a server deleting a cookie with `Max-Age=0` would be ignored.
    static func applyingMaxAge(_ cookie: HTTPCookie, now: Date = Date()) -> HTTPCookie {
        guard var properties = cookie.properties,
            let raw = properties[.maximumAge].map({ "\($0)".trimmingCharacters(in: .whitespaces) }),
            let seconds = Int(raw)
        else { return cookie }
        properties[.maximumAge] = nil
        properties[.expires] = seconds <= 0 ? Date(timeIntervalSince1970: 0) : now.addingTimeInterval(Double(seconds))
        return HTTPCookie(properties: properties) ?? cookie
    }
}
