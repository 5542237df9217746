/// The options every serializer in this module shares: AFHTTPRequestSerializer's properties, as
/// a value of `var`s.
///
/// ```swift
/// var serializer = HTTPRequestSerializer()
/// serializer.configuration.arrayEncoding = .indexed
/// serializer.configuration.boolEncoding = .literal
/// serializer.configuration.timeoutInterval = 10
/// serializer.setValue("application/vnd.api+json", forHTTPHeaderField: "Accept")
/// ```
///
/// Options a request already decided for itself win: a header the request carries is never
/// replaced by a default header, and ``timeoutInterval``, ``cachePolicy`` and
/// ``httpShouldHandleCookies`` apply only to a request that still has `URLRequest`'s default for
/// them. (AFNetworking's `allowsCellularAccess`, `networkServiceType` and
/// `HTTPShouldUsePipelining` have no meaning for libcurl on Linux and are left out.)
public struct RequestSerializerConfiguration: Sendable {
    /// Methods whose parameters go into the query string; others get a body. Compared in upper
    /// case. AFNetworking's `HTTPMethodsEncodingParametersInURI`; defaults to `GET`, `HEAD`, `DELETE`.
    public var methodsEncodingParametersInURI: Set<String> = ["GET", "HEAD", "DELETE"]
    /// Replaces the built-in query-string encoding when set.
    public var queryStringSerialization: QueryStringSerialization? = nil
    /// How array elements are keyed; defaults to `key[]`.
    public var arrayEncoding: ArrayEncoding = .brackets
    /// How booleans are written; defaults to `1`/`0`.
    public var boolEncoding: BoolEncoding = .numeric
    /// How spaces are written; defaults to `%20`.
    public var spaceEncoding: SpaceEncoding = .percentEscaped
    /// How dates are written; defaults to ISO 8601.
    public var dateEncoding: DateEncoding = .iso8601
    /// How `Data` values are written in a query or form body; defaults to Base64.
    public var dataEncoding: DataEncoding = .base64
    /// The encoding of text before it is percent-escaped, and of multipart form fields;
    /// defaults to UTF-8. The form body's `Content-Type` names it as its `charset`.
    public var stringEncoding: String.Encoding = .utf8
    /// The request timeout in seconds, for requests that still have `URLRequest`'s default
    /// (60 s); `nil` leaves requests alone.
    public var timeoutInterval: TimeInterval? = nil
    /// The cache policy, for requests that still have `.useProtocolCachePolicy`; `nil` leaves
    /// requests alone.
    public var cachePolicy: URLRequest.CachePolicy? = nil
    /// Whether cookies are sent and stored, for requests that still have the default (`true`);
    /// `nil` leaves requests alone.
    public var httpShouldHandleCookies: Bool? = nil
    /// Headers added to every request that does not set them itself. Starts with
    /// `Accept-Language` (the locale's preferred languages) and `User-Agent`; change it through
    /// ``ConfigurableRequestSerializer/setValue(_:forHTTPHeaderField:)`` so that names stay
    /// case-insensitive.
    public internal(set) var httpRequestHeaders: [String: String] {
        didSet { headersToApply = Self.headersToApply(httpRequestHeaders) }
    }

    /// ``httpRequestHeaders`` sorted by name, each name as `URLRequest.setValue` would store it
    /// (Foundation capitalizes it: `x-api-key` becomes `X-Api-Key`), and whether it can be sent.
    /// Worked out when the headers change rather than for every request: `capitalized` and
    /// `setValue` cost Foundation about 13,000 instructions a header (docs/performance.md).
    private(set) var headersToApply: [HeaderToApply]

    /// One default header, ready to merge into a request.
    struct HeaderToApply {
        let name: String
        let canonicalName: String
        let value: String
        /// Whether the name is a token and the value holds no control character; a request
        /// that would take a header that is not fails (``ConfigurableRequestSerializer/prepare(_:)``).
        let isValid: Bool
    }

    /// Creates the default configuration, with `Accept-Language` and `User-Agent` headers.
    public init() {
        var headers: [String: String] = [:]
        if let languages = DefaultHeaders.acceptLanguage() {
            headers["Accept-Language"] = languages
        }
        headers["User-Agent"] = DefaultHeaders.userAgent
        httpRequestHeaders = headers
        headersToApply = Self.headersToApply(headers)
    }

    private static func headersToApply(_ headers: [String: String]) -> [HeaderToApply] {
        headers.sorted { $0.key < $1.key }.map {
            HeaderToApply(
                name: $0.key,
                canonicalName: $0.key.capitalized,
                value: $0.value,
                isValid: RequestValidation.problem(headerName: $0.key, value: $0.value) == nil
            )
        }
    }

    /// The default header for `field`, compared case-insensitively.
    public func value(forHTTPHeaderField field: String) -> String? {
        httpRequestHeaders.first { $0.key.caseInsensitiveCompare(field) == .orderedSame }?.value
    }

    /// Sets (or with `nil`, removes) the default header `field`, replacing one whose name
    /// differs only in case. Values are checked when a request is built: a name or value that
    /// cannot be sent makes every request fail with `GannetError(.invalidHeader)`.
    public mutating func setValue(_ value: String?, forHTTPHeaderField field: String) {
        for key in httpRequestHeaders.keys where key.caseInsensitiveCompare(field) == .orderedSame {
            httpRequestHeaders[key] = nil
        }
        if let value { httpRequestHeaders[field] = value }
    }
}
