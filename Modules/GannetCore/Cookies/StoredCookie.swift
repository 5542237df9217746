import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A cookie as RFC 6265bis §5.7 stores it: the fields of its storage model, and the ways in and
/// out of Foundation's `HTTPCookie` (the ``CookieStoring`` protocol's currency).
/// https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#name-storage-model
struct StoredCookie: Equatable, Sendable, Codable {
    var name: String
    var value: String
    /// The host that set it when ``hostOnly``, else the `Domain` it covers; lower case, no dot.
    var domain: String
    var hostOnly: Bool
    var path: String
    var secure: Bool
    var httpOnly: Bool
    var sameSite: String
    /// `nil` for a session cookie (§5.7 step 6's persistent-flag false).
    var expires: Date?
    var created: Date
    var lastAccess: Date

    /// Same name, domain, host-only flag and path: the later replaces the earlier (§5.7 step 23).
    func sameKey(_ other: StoredCookie) -> Bool {
        CookieStore.sameBytes(name, other.name) && CookieStore.sameBytes(domain, other.domain)
            && hostOnly == other.hostOnly && CookieStore.sameBytes(path, other.path)
    }

    func isExpired(at now: Date) -> Bool { expires.map { $0 <= now } ?? false }

    /// §5.8.3 step 4: `name=value`, or the value alone for a nameless cookie.
    var serialized: String { name.isEmpty ? value : "\(name)=\(value)" }

    /// Bytes it takes in a `Cookie` field.
    var serializedByteCount: Int { name.utf8.count + value.utf8.count + (name.isEmpty ? 0 : 1) }

    /// Foundation's form: a host-only cookie's domain has no leading dot, a `Domain` one has
    /// one (how ``CookieRules/domainMatches(host:cookieDomain:)`` reads them). A nameless
    /// cookie has no `HTTPCookie` form.
    var httpCookie: HTTPCookie? {
        guard !name.isEmpty else { return nil }
        var properties: [HTTPCookiePropertyKey: Any] = [
            .name: name, .value: value, .path: path, .domain: hostOnly ? domain : "." + domain,
        ]
        if secure { properties[.secure] = "TRUE" }
        if let expires { properties[.expires] = expires }
        if httpOnly { properties[HTTPCookiePropertyKey("HttpOnly")] = "TRUE" }
        return HTTPCookie(properties: properties)
    }

    /// A cookie from another storage or the caller, `created` standing for its creation time
    /// (Foundation keeps none); `nil` when it breaks a rule no stored cookie may break (a control
    /// character, name and value over 4096 bytes, an empty domain).
    init?(_ cookie: HTTPCookie, created: Date) {
        let domain = cookie.domain.lowercased()
        let bare = String(decoding: domain.utf8.drop(while: { $0 == UInt8(ascii: ".") }), as: UTF8.self)
        guard !bare.isEmpty, Self.isAcceptable(name: cookie.name, value: cookie.value) else { return nil }
        self.init(
            name: cookie.name,
            value: cookie.value,
            domain: bare,
            hostOnly: domain.utf8.first != UInt8(ascii: "."),
            path: cookie.path.isEmpty ? "/" : cookie.path,
            secure: cookie.isSecure,
            httpOnly: cookie.isHTTPOnly,
            sameSite: SetCookieLine.SameSite.default.rawValue,
            expires: cookie.expiresDate,
            created: created,
            lastAccess: created
        )
    }

    init(
        name: String,
        value: String,
        domain: String,
        hostOnly: Bool,
        path: String,
        secure: Bool,
        httpOnly: Bool,
        sameSite: String,
        expires: Date?,
        created: Date,
        lastAccess: Date
    ) {
        self.name = name
        self.value = value
        self.domain = domain
        self.hostOnly = hostOnly
        self.path = path
        self.secure = secure
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.expires = expires
        self.created = created
        self.lastAccess = lastAccess
    }

    /// The checks of §5.6 steps 1 and 5 and §5.7 step 2 on a name and value from elsewhere.
    static func isAcceptable(name: String, value: String) -> Bool {
        let isControl: (UInt8) -> Bool = { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
        guard !name.utf8.contains(where: isControl), !value.utf8.contains(where: isControl),
            !(name.isEmpty && value.isEmpty), name.utf8.count + value.utf8.count <= SetCookieLine.maximumNameValueBytes,
            !name.contains(";"), !name.contains("="), !value.contains(";")
        else { return false }
        return true
    }
}
