import Foundation

/// One `Set-Cookie` field line, parsed by RFC 6265bis §5.6 ("The Set-Cookie Header Field").
/// Pure: no clock, no URL; what the attributes mean for a request is the storage model's
/// (``CookieStore``). One line is always at most one cookie: a comma is data (an `Expires`
/// date, a value), never a separator, unlike Foundation's `HTTPCookie`, which splits a line at
/// its commas (docs/auth-cookies-cache.md, "Cookies").
/// https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#name-the-set-cookie-header-field
struct SetCookieLine: Equatable, Sendable {
    /// The `SameSite` attribute's enforcement (§5.6.7): `Default` when absent or unknown.
    enum SameSite: String, Sendable {
        case strict = "Strict"
        case lax = "Lax"
        case unrestricted = "None"
        case `default` = "Default"
    }

    var name: String
    var value: String
    /// The last valid `Expires` (§5.6.1), as parsed by ``CookieDate``.
    var expires: Date?
    /// The last valid `Max-Age` in seconds (§5.6.2), unclamped; the store turns it into a date.
    var maxAge: Int64?
    /// The last `Domain` (§5.6.3), without its leading dots, lower-cased; `""` when it was empty.
    var domain: String?
    /// The last `Path` (§5.6.4) if it starts with `/`; a later invalid one resets it to `nil`,
    /// meaning the request's default path.
    var path: String?
    var secure = false
    var httpOnly = false
    var sameSite = SameSite.default

    /// §5.6 step 5: a cookie whose name and value together exceed this is ignored.
    static let maximumNameValueBytes = 4096
    /// §5.6.1 step 6 of the attribute loop: an attribute value beyond this is ignored.
    static let maximumAttributeValueBytes = 1024

    /// Parses `line`, or `nil` when §5.6 ignores it entirely: a control character other than
    /// HTAB (step 1), name and value both empty (§5.7 step 2), or name and value over 4096 bytes
    /// (step 5).
    static func parse(_ line: String) -> SetCookieLine? {
        let bytes = Array(line.utf8)
        // Step 1: %x00-08 / %x0A-1F / %x7F anywhere ignores the whole line.
        if bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) { return nil }
        // Step 2: the name-value pair runs to the first ";".
        let semicolon = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
        let pair = bytes[..<semicolon]
        // Step 3: without "=", the name is empty and the whole pair is the value.
        let name: ArraySlice<UInt8>
        let value: ArraySlice<UInt8>
        if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
            name = pair[..<equals]
            value = pair[(equals + 1)...]
        } else {
            name = pair[pair.startIndex..<pair.startIndex]
            value = pair
        }
        // Step 4: leading and trailing WSP removed.
        let trimmedName = trimmingWhitespace(name)
        let trimmedValue = trimmingWhitespace(value)
        // §5.7 step 2 (checked here so a parsed line is always a candidate cookie).
        if trimmedName.isEmpty && trimmedValue.isEmpty { return nil }
        // Step 5: name and value together at most 4096 octets.
        if trimmedName.count + trimmedValue.count > maximumNameValueBytes { return nil }
        var cookie = SetCookieLine(name: string(trimmedName), value: string(trimmedValue))
        // Step 7: the attributes, each up to the next ";"; the last of a name wins.
        var rest = bytes[semicolon...]
        while let first = rest.first, first == UInt8(ascii: ";") {
            rest = rest.dropFirst()
            let end = rest.firstIndex(of: UInt8(ascii: ";")) ?? rest.endIndex
            cookie.apply(attribute: rest[..<end])
            rest = rest[end...]
        }
        return cookie
    }

    /// The attribute loop's steps 4-7 for one `cookie-av`.
    private mutating func apply(attribute av: ArraySlice<UInt8>) {
        let nameBytes: ArraySlice<UInt8>
        let valueBytes: ArraySlice<UInt8>
        if let equals = av.firstIndex(of: UInt8(ascii: "=")) {
            nameBytes = av[..<equals]
            valueBytes = av[(equals + 1)...]
        } else {
            nameBytes = av
            valueBytes = av[av.endIndex...]
        }
        let attributeValue = Self.trimmingWhitespace(valueBytes)
        // Step 6: an attribute value over 1024 octets is ignored, attribute and all.
        guard attributeValue.count <= Self.maximumAttributeValueBytes else { return }
        let attributeName = Self.string(Self.trimmingWhitespace(nameBytes)).lowercased()
        switch attributeName {
        case "expires":
            // §5.6.1: a date that does not parse ignores the attribute.
            if let date = CookieDate.parse(attributeValue) { expires = date }
        case "max-age":
            // §5.6.2: a DIGIT or "-" first, DIGITs after; anything else ignores the attribute.
            if let seconds = Self.deltaSeconds(attributeValue) { maxAge = seconds }
        case "domain":
            // §5.6.3: leading dots dropped, lower case. An empty value is kept as "": the
            // storage model then makes a host-only cookie (§5.7 step 10's "Otherwise").
            domain = Self.string(attributeValue.drop(while: { $0 == UInt8(ascii: ".") })).lowercased()
        case "path":
            // §5.6.4: empty, or not starting with "/", means the default path.
            path = attributeValue.first == UInt8(ascii: "/") ? Self.string(attributeValue) : nil
        case "secure":
            // §5.6.5: the name alone decides; `Secure=x` is Secure.
            secure = true
        case "httponly":
            // §5.6.6: likewise.
            httpOnly = true
        case "samesite":
            // §5.6.7: "None", "Strict" or "Lax" in any case, otherwise "Default".
            sameSite =
                switch Self.string(attributeValue).lowercased() {
                case "none": .unrestricted
                case "strict": .strict
                case "lax": .lax
                default: .default
                }
        default:
            // Unknown attributes are ignored (§5.6 step 7).
            break
        }
    }

    /// §5.6.2's delta-seconds: `-?DIGIT+`, saturating rather than overflowing (a huge value is
    /// a far future, which the storage model clamps to 400 days).
    static func deltaSeconds(_ bytes: ArraySlice<UInt8>) -> Int64? {
        var digits = bytes
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        var result: Int64 = 0
        for digit in digits {
            let (times, overflow) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(digit - 0x30))
            if overflow || overflow2 { return negative ? Int64.min : Int64.max }
            result = sum
        }
        return negative ? -result : result
    }

    /// WSP is SP and HTAB (RFC 5234).
    static func trimmingWhitespace(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isWSP: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !isWSP($0) }), let last = bytes.lastIndex(where: { !isWSP($0) })
        else { return bytes[bytes.endIndex...] }
        return bytes[first...last]
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }
}
