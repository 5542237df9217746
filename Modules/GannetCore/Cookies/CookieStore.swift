import Foundation

/// RFC 6265bis's storage model (§5.7) and retrieval (§5.8.3) as a value: cookies in, a `Cookie`
/// field out, a clock and a URL given, no I/O. ``CookieJar`` keeps one behind a lock; the
/// engine runs one over any other ``CookieStoring``'s cookies so its rules hold whatever the
/// storage (docs/auth-cookies-cache.md, "Cookies").
/// https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#name-storage-model
struct CookieStore: Sendable {
    /// What the store holds at most, as browsers and libcurl bound theirs (§5.7: "user agents
    /// SHOULD limit"; §6.1 asks for at least 4096 bytes a cookie, 50 a domain, 3000 in all).
    struct Limits: Sendable, Equatable {
        /// Cookies per site (registrable domain), Chrome's 180: a site cannot push out others.
        var perSite = 180
        /// Cookies in all, Chrome's 3000.
        var total = 3000
        /// The longest `Cookie` field sent, libcurl's 8190 bytes (`MAX_COOKIE_HEADER_LEN`):
        /// servers commonly refuse a head over 8 KB, so a larger field would break the site for
        /// good. Cookies that would pass it are left out, most specific paths kept first.
        var headerBytes = 8190

        static let standard = Limits()
    }

    /// Why §5.7 ignores a cookie.
    enum Refusal: Error, Equatable, Sendable {
        /// §5.6: a control character, no name nor value, or name and value over 4096 bytes.
        case unparsable
        /// Step 8: a `Domain` that is not ASCII.
        case nonASCIIDomain
        /// Step 9: `Domain` is a public suffix (`com`, `co.uk`) other than the host itself.
        case publicSuffixDomain
        /// Step 10: the host does not domain-match `Domain` (another site, or an IP address).
        case domainMismatch
        /// Step 13: `Secure` from a response that did not come over a secure scheme.
        case secureFromInsecureOrigin
        /// Step 16: a plain-http response would overwrite (shadow) a `Secure` cookie.
        case shadowsSecureCookie
        /// Step 19: `SameSite=None` without `Secure`.
        case sameSiteNoneWithoutSecure
        /// Step 20 and 21 (§4.1.3): a `__Secure-` or `__Host-` name whose requirements are
        /// unmet, or a nameless cookie whose value starts with one (step 4).
        case prefixRequirements
        /// The site's cookies are at ``Limits/perSite`` and the storage cannot evict (a
        /// storage other than ``CookieJar``).
        case siteFull
    }

    /// What receiving one `Set-Cookie` line did.
    enum Outcome: Equatable, Sendable {
        case stored(StoredCookie)
        /// An expiry in the past: the cookie with its key is removed (how servers delete one).
        case deleted(StoredCookie)
        case refused(Refusal)
    }

    /// The request a cookie came from or goes to: §5.1.2's canonical host, the path as sent
    /// (a trailing `/` kept, which `URL.path` drops) and whether the scheme is secure.
    struct Origin: Equatable, Sendable {
        var host: String
        var path: String
        var isSecure: Bool

        init(host: String, path: String, isSecure: Bool) {
            self.host = host
            self.path = path
            self.isSecure = isSecure
        }

        init?(_ url: URL) {
            guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true),
                let host = components.host?.lowercased(), !host.isEmpty
            else { return nil }
            self.host =
                host.utf8.first == UInt8(ascii: "[") && host.utf8.last == UInt8(ascii: "]")
                ? String(host.dropFirst().dropLast()) : host
            path = components.percentEncodedPath
            // §5.8.3: "secure" is TLS; http to localhost is not secure here.
            isSecure = ["https", "wss"].contains(components.scheme?.lowercased() ?? "")
        }
    }

    private(set) var cookies: [StoredCookie] = []
    var limits: Limits

    init(cookies: [StoredCookie] = [], limits: Limits = .standard) {
        self.cookies = cookies
        self.limits = limits
    }

    /// The longest a cookie may live: §5.6.1 and §5.6.2 cap `Expires` and `Max-Age` at 400 days.
    static let maximumLifetime: TimeInterval = 400 * 86_400

    // MARK: §5.7, storing

    /// Parses `line` (§5.6) and stores it (§5.7) as received from `origin` at `now`. With
    /// `evicting` false (a storage the store only mirrors) a full site refuses the cookie
    /// rather than evicting another.
    mutating func receive(_ line: String, from origin: Origin, now: Date, evicting: Bool = true) -> Outcome {
        guard let parsed = SetCookieLine.parse(line) else { return .refused(.unparsable) }
        switch Self.cookie(from: parsed, origin: origin, now: now) {
        case .failure(let refusal): return .refused(refusal)
        case .success(let cookie): return store(cookie, fromSecureOrigin: origin.isSecure, now: now, evicting: evicting)
        }
    }

    /// §5.7 steps 2-21 for one parsed line: the cookie to store, or why it is ignored. Pure.
    static func cookie(from line: SetCookieLine, origin: Origin, now: Date) -> Result<StoredCookie, Refusal> {
        // Step 2 is the parser's; step 4: a nameless cookie may not pose as a prefixed one.
        if line.name.isEmpty, hasPrefix(line.value, "__Secure-") || hasPrefix(line.value, "__Host-") {
            return .failure(.prefixRequirements)
        }
        // Step 6: Max-Age wins over Expires; either is capped at 400 days; neither makes a
        // session cookie.
        var expires: Date?
        if let maxAge = line.maxAge {
            expires =
                maxAge <= 0
                ? Date(timeIntervalSince1970: 0) : now.addingTimeInterval(min(TimeInterval(maxAge), maximumLifetime))
        } else if let date = line.expires {
            expires = min(date, now.addingTimeInterval(maximumLifetime))
        }
        // Steps 7-10: the domain.
        var domain = line.domain ?? ""
        // Step 8: a domain that is not ASCII (not in A-label form) is refused.
        guard domain.utf8.allSatisfy({ $0 < 0x80 }) else { return .failure(.nonASCIIDomain) }
        // Step 9: a public suffix is only accepted as the host itself, and then host-only.
        if !domain.isEmpty, PublicSuffix.isPublicSuffix(domain) {
            guard Self.sameBytes(domain, origin.host) else { return .failure(.publicSuffixDomain) }
            domain = ""
        }
        // Step 10: a Domain the host domain-matches covers its subdomains; none (or an empty
        // one, §5.6.3) makes a host-only cookie.
        let hostOnly = domain.isEmpty
        if !hostOnly, !domainMatches(origin.host, domain) { return .failure(.domainMismatch) }
        // Step 11: the path, or the request's default path.
        let path = line.path ?? defaultPath(origin.path)
        // Step 13: Secure only from a secure origin.
        if line.secure, !origin.isSecure { return .failure(.secureFromInsecureOrigin) }
        // Step 19: SameSite=None requires Secure.
        if line.sameSite == .unrestricted, !line.secure { return .failure(.sameSiteNoneWithoutSecure) }
        // Steps 20-21: __Secure- needs Secure; __Host- needs Secure, no Domain and Path=/.
        if hasPrefix(line.name, "__Secure-"), !line.secure { return .failure(.prefixRequirements) }
        if hasPrefix(line.name, "__Host-"), !line.secure || !hostOnly || path != "/" {
            return .failure(.prefixRequirements)
        }
        return .success(
            StoredCookie(
                name: line.name,
                value: line.value,
                domain: hostOnly ? origin.host : domain,
                hostOnly: hostOnly,
                path: path,
                secure: line.secure,
                httpOnly: line.httpOnly,
                sameSite: line.sameSite.rawValue,
                expires: expires,
                created: now,
                lastAccess: now
            )
        )
    }

    /// §5.7 steps 16 and 22-24, then the limits (§5.7.1's "remove excess cookies").
    mutating func store(_ cookie: StoredCookie, fromSecureOrigin: Bool, now: Date, evicting: Bool = true) -> Outcome {
        var cookie = cookie
        // Step 16: a plain-http response may not overwrite or shadow a Secure cookie.
        if !cookie.secure, !fromSecureOrigin,
            cookies.contains(where: {
                $0.secure && Self.sameBytes($0.name, cookie.name)
                    && (Self.domainMatches($0.domain, cookie.domain) || Self.domainMatches(cookie.domain, $0.domain))
                    && Self.pathMatches(cookie.path, $0.path)
            })
        {
            return .refused(.shadowsSecureCookie)
        }
        // Step 23: the old cookie of the same key goes; its creation time stays.
        let old = cookies.firstIndex(where: { $0.sameKey(cookie) })
        if let old {
            cookie.created = cookies[old].created
            cookies.remove(at: old)
        }
        if cookie.isExpired(at: now) { return .deleted(cookie) }
        let site = PublicSuffix.registrableDomain(cookie.domain)
        if !evicting, old == nil,
            cookies.count(where: { PublicSuffix.registrableDomain($0.domain) == site }) >= limits.perSite
        {
            return .refused(.siteFull)
        }
        // Step 24.
        cookies.append(cookie)
        if evicting { evictExcess(site: site, keeping: cookie, now: now) }
        return .stored(cookie)
    }

    /// Expired cookies first, then the site's least recently used beyond its limit, then the
    /// store's least recently used beyond the total; the cookie just stored is kept.
    mutating func evictExcess(site: String, keeping kept: StoredCookie, now: Date) {
        cookies.removeAll { $0.isExpired(at: now) }
        let ofSite = cookies.indices.filter { PublicSuffix.registrableDomain(cookies[$0].domain) == site }
        if ofSite.count > limits.perSite {
            removeLeastRecentlyUsed(ofSite.count - limits.perSite, among: ofSite, keeping: kept)
        }
        if cookies.count > limits.total {
            removeLeastRecentlyUsed(cookies.count - limits.total, among: Array(cookies.indices), keeping: kept)
        }
    }

    private mutating func removeLeastRecentlyUsed(_ count: Int, among indices: [Int], keeping kept: StoredCookie) {
        let victims = indices.filter { !cookies[$0].sameKey(kept) }
            .sorted { (cookies[$0].lastAccess, cookies[$0].created) < (cookies[$1].lastAccess, cookies[$1].created) }
            .prefix(count)
        for index in victims.sorted(by: >) { cookies.remove(at: index) }
    }

    /// Removes every cookie expired at `now`.
    mutating func removeExpired(now: Date) {
        cookies.removeAll { $0.isExpired(at: now) }
    }

    // MARK: §5.8.3, retrieval

    /// Steps 1-3: the cookies for a request to `origin`, most specific path first, then oldest;
    /// their last-access time set to `now`.
    mutating func cookies(for origin: Origin, now: Date) -> [StoredCookie] {
        var chosen: [Int] = []
        for (index, cookie) in cookies.enumerated() where Self.matches(cookie, origin, now: now) {
            chosen.append(index)
        }
        for index in chosen { cookies[index].lastAccess = now }
        return Self.sorted(chosen.map { cookies[$0] })
    }

    /// Step 4: the `Cookie` field for `origin`, or `nil` when no cookie goes; cookies that would
    /// take it past ``Limits/headerBytes`` are left out.
    mutating func header(for origin: Origin, now: Date) -> String? {
        Self.serialize(cookies(for: origin, now: now), limit: limits.headerBytes)
    }

    /// Step 1's conditions: domain (exactly for a host-only cookie), path, Secure only over a
    /// secure scheme, not expired. SameSite is not enforced: a client that is not a browser has
    /// no "site for cookies", so every request is same-site, as in libcurl.
    static func matches(_ cookie: StoredCookie, _ origin: Origin, now: Date) -> Bool {
        guard !cookie.isExpired(at: now), !cookie.secure || origin.isSecure else { return false }
        let domainOK =
            cookie.hostOnly ? sameBytes(origin.host, cookie.domain) : domainMatches(origin.host, cookie.domain)
        return domainOK && pathMatches(origin.path, cookie.path)
    }

    /// Step 2: longer paths first; among equal lengths, earlier creation first.
    static func sorted(_ cookies: [StoredCookie]) -> [StoredCookie] {
        cookies.enumerated()
            .sorted { a, b in
                let (pa, pb) = (a.element.path.utf8.count, b.element.path.utf8.count)
                if pa != pb { return pa > pb }
                if a.element.created != b.element.created { return a.element.created < b.element.created }
                return a.offset < b.offset
            }
            .map(\.element)
    }

    /// Step 4, bounded: `name=value` pairs joined by `"; "`, skipping any that would pass `limit`.
    static func serialize(_ cookies: [StoredCookie], limit: Int) -> String? {
        var parts: [String] = []
        var bytes = 0
        for cookie in cookies {
            let added = cookie.serializedByteCount + (parts.isEmpty ? 0 : 2)
            guard bytes + added <= limit else { continue }
            parts.append(cookie.serialized)
            bytes += added
        }
        return parts.isEmpty ? nil : parts.joined(separator: "; ")
    }

    // MARK: §5.1, the subcomponent algorithms

    // Names, domains and paths are compared as bytes, as §5.1 compares octets (docs/auth-cookies-cache.md).
    // `String`'s own comparison works on grapheme clusters under canonical equivalence: a
    // combining mark joins the `/` or `-` before it (`"/\u{301}a"` would not start with `/`, and
    // `"__Host-\u{301}x"` would escape the `__Host-` rules), and `"é"` equals `"e\u{301}"`.

    /// The same bytes.
    static func sameBytes(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }

    /// `string`'s bytes start with `prefix`'s.
    static func bytes(of string: String, startWith prefix: String) -> Bool {
        string.utf8.count >= prefix.utf8.count && string.utf8.prefix(prefix.utf8.count).elementsEqual(prefix.utf8)
    }

    /// `string`'s bytes end with `suffix`'s.
    static func bytes(of string: String, endWith suffix: String) -> Bool {
        string.utf8.count >= suffix.utf8.count && string.utf8.suffix(suffix.utf8.count).elementsEqual(suffix.utf8)
    }

    /// §5.1.3: `host` is `domain`, or ends in `.domain` and is not an IP address.
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if sameBytes(host, domain) { return true }
        return bytes(of: host, endWith: "." + domain) && !isIPAddress(host)
    }

    /// An IPv4 or IPv6 literal, to which a `Domain` never applies.
    static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (!host.isEmpty && host.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") })
    }

    /// §5.1.4: the default path of a request path, its directory without the trailing `/`:
    /// `/a/b/` gives `/a/b`, `/a/b` gives `/a`, `/a` and `/` give `/`.
    static func defaultPath(_ uriPath: String) -> String {
        let bytes = uriPath.utf8
        let slash = UInt8(ascii: "/")
        guard bytes.first == slash, let last = bytes.lastIndex(of: slash), last != bytes.startIndex else {
            return "/"
        }
        return String(decoding: bytes[..<last], as: UTF8.self)
    }

    /// §5.1.4: the cookie path is the request path, or a prefix of it that ends in `/` or is
    /// followed by `/`. An empty request path is `/`.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        let path = requestPath.isEmpty ? "/" : requestPath
        if sameBytes(path, cookiePath) { return true }
        guard bytes(of: path, startWith: cookiePath) else { return false }
        let slash = UInt8(ascii: "/")
        return cookiePath.utf8.last == slash || path.utf8.dropFirst(cookiePath.utf8.count).first == slash
    }

    /// The cookie prefixes are matched in any ASCII case (§4.1.3: `__SECURE-` is `__Secure-`).
    static func hasPrefix(_ name: String, _ prefix: String) -> Bool {
        let lower: (UInt8) -> UInt8 = { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        return name.utf8.count >= prefix.utf8.count
            && name.utf8.prefix(prefix.utf8.count).map(lower).elementsEqual(prefix.utf8.map(lower))
    }
}
