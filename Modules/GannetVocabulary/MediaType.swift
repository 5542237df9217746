/// A media type such as `application/json; charset=utf-8`, or a media range such as `text/*`
/// or `application/*+json`: what a `Content-Type` header names and what serializers declare
/// they handle.
///
/// https://www.rfc-editor.org/rfc/rfc9110.html#name-media-type
///
/// The type, subtype and parameter names are case-insensitive and stored lowercased; parameter
/// values keep their case. Parsing is strict about the `type/subtype` part and lenient about
/// parameters: a malformed parameter is skipped, as browsers do, rather than failing the whole
/// header.
///
/// ```swift
/// let type = MediaType(headerValue)          // failable: text from the network
/// let problem: MediaType = "Application/Problem+JSON; charset=UTF-8"   // a literal
/// problem.essence                            // "application/problem+json"
/// problem.suffix                             // "json"
/// problem.charset                            // "UTF-8"
/// MediaType.anyJSONSuffix.matches(problem)   // true
/// let accepted: Set<MediaType> = ["application/json", "text/*"]
/// ```
///
/// With a string literal, `MediaType("text/html")` is the literal initializer (SE-0213), not
/// the failable one: it is not optional, and an invalid literal stops the program.
///
/// Parameters never affect ``matches(_:)``: `application/json` matches
/// `application/json; charset=utf-8`. Equality (`==`) compares the type, the subtype and the
/// parameters.
public struct MediaType: Sendable, Hashable {
    /// The top-level type, lowercased: `application`, `text`, or `*` for any.
    public let type: String
    /// The subtype, lowercased: `json`, `vnd.api+json`, `*`, or `*+json` in a range that
    /// matches every subtype with that structured-syntax suffix.
    public let subtype: String
    /// The parameters, with lowercased names and unquoted values.
    public let parameters: [String: String]

    /// Parses a media type or media range, for example a `Content-Type` header value.
    ///
    /// Returns `nil` when there is no valid `type/subtype` (missing slash, characters outside
    /// RFC 9110's `token`, or `*/subtype`).
    public init?(_ string: some StringProtocol) {
        guard let parsed = MediaTypeParser.parse(Substring(string)) else { return nil }
        self = parsed
    }

    /// Creates a media type from its parts; `type`, `subtype` and parameter names are lowercased.
    ///
    /// Use ``init(_:)`` for text from the network: this initializer does not check the syntax.
    public init(type: String, subtype: String, parameters: [String: String] = [:]) {
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        var lowered: [String: String] = [:]
        for (name, value) in parameters { lowered[name.lowercased()] = value }
        self.parameters = lowered
    }

    /// `type/subtype` without parameters, lowercased (the WHATWG MIME Sniffing term).
    public var essence: String { "\(type)/\(subtype)" }

    /// The structured-syntax suffix (RFC 6838 §4.2.8): `json` for `application/vnd.api+json`,
    /// `xml` for `image/svg+xml`; `nil` when the subtype has none.
    public var suffix: String? {
        guard let plus = subtype.lastIndex(of: "+") else { return nil }
        let suffix = subtype[subtype.index(after: plus)...]
        return suffix.isEmpty ? nil : String(suffix)
    }

    /// The `charset` parameter, as written (`UTF-8`, `iso-8859-1`), if any.
    public var charset: String? { parameters["charset"] }

    /// `true` for a range (`*/*`, `text/*`, `application/*+json`) rather than one media type.
    public var isRange: Bool { type == "*" || subtype.hasPrefix("*") }

    /// The same media type without parameters.
    public var withoutParameters: MediaType {
        MediaType(checkedType: type, subtype: subtype, parameters: [:])
    }

    /// Whether `other` falls within this media type or range. Parameters on either side are
    /// ignored.
    ///
    /// - `*/*` matches everything;
    /// - `text/*` matches every `text` subtype;
    /// - `application/*+json` matches `application` subtypes whose structured-syntax suffix is
    ///   `json` (`application/problem+json`, `application/vnd.api+json`), but not
    ///   `application/json` itself: register that one beside it;
    /// - otherwise the type and subtype must be equal.
    public func matches(_ other: MediaType) -> Bool {
        if type == "*" { return true }
        guard type == other.type else { return false }
        if subtype == "*" || subtype == other.subtype { return true }
        if subtype.hasPrefix("*+") {
            return other.suffix == String(subtype.dropFirst(2))
        }
        return false
    }

    /// Trusted parts that are already lowercased and valid.
    init(checkedType type: String, subtype: String, parameters: [String: String]) {
        self.type = type
        self.subtype = subtype
        self.parameters = parameters
    }
}

extension MediaType: CustomStringConvertible {
    /// The media type as a header value: `type/subtype` then the parameters sorted by name,
    /// quoted where RFC 9110 requires it.
    public var description: String {
        var text = essence
        for name in parameters.keys.sorted() {
            let value = parameters[name] ?? ""
            text += "; \(name)=\(MediaTypeParser.isToken(value) ? value : MediaTypeParser.quoted(value))"
        }
        return text
    }
}

extension MediaType: ExpressibleByStringLiteral {
    /// Creates a media type from a literal such as `"application/json"`.
    ///
    /// An invalid literal is a programming error and stops the program, like an out-of-range
    /// array index; use ``init(_:)`` for text that comes from outside the program.
    public init(stringLiteral value: String) {
        guard let parsed = MediaType(value) else {
            preconditionFailure("Invalid media type literal \"\(value)\"")
        }
        self = parsed
    }
}

extension MediaType {
    /// `application/json` (RFC 8259).
    public static let json = MediaType(checkedType: "application", subtype: "json", parameters: [:])
    /// `application/*+json`: every JSON-based format (`application/problem+json`, …).
    public static let anyJSONSuffix = MediaType(checkedType: "application", subtype: "*+json", parameters: [:])
    /// `text/plain`.
    public static let plainText = MediaType(checkedType: "text", subtype: "plain", parameters: [:])
    /// `text/html`.
    public static let html = MediaType(checkedType: "text", subtype: "html", parameters: [:])
    /// `text/*`: every text type.
    public static let anyText = MediaType(checkedType: "text", subtype: "*", parameters: [:])
    /// `*/*`: every media type.
    public static let any = MediaType(checkedType: "*", subtype: "*", parameters: [:])

    /// The media type of a response's `Content-Type` header; `nil` when the header is missing
    /// or unparseable.
    ///
    /// A response that repeats `Content-Type` reaches Foundation as one comma-joined value
    /// (`application/json, application/msgpack`); as in browsers (WHATWG Fetch, "extract a MIME
    /// type"), the last valid media type other than `*/*` wins.
    public init?(contentTypeOf response: HTTPURLResponse) {
        guard let header = response.value(forHTTPHeaderField: "Content-Type"),
            let parsed = MediaTypeParser.parseContentType(header)
        else { return nil }
        self = parsed
    }
}

extension Set where Element == MediaType {
    /// Whether any range in the set matches `mediaType` (parameters ignored).
    public func containsMatch(for mediaType: MediaType) -> Bool {
        contains { $0.matches(mediaType) }
    }
}
