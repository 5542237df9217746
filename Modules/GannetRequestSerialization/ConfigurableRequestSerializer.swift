/// A serializer built on ``RequestSerializerConfiguration``: AFHTTPRequestSerializer's
/// vocabulary (default headers, Basic authorization, `requestWithMethod:URLString:parameters:error:`,
/// multipart requests) for every serializer in this module, and for an app's own.
///
/// Conform a type by giving it a `configuration` and a
/// `RequestSerializing.request(byEncoding:into:)`; ``prepare(_:)`` applies the
/// configuration's headers and options, `RequestValidation.validate(_:)` checks the result:
///
/// ```swift
/// struct CSVRequestSerializer: ConfigurableRequestSerializer {
///     var configuration = RequestSerializerConfiguration()
///     func request(byEncoding parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
///         var request = try prepare(request)
///         request.httpBody = Data(csv(parameters).utf8)
///         request.setValue("text/csv", forHTTPHeaderField: "Content-Type")
///         try RequestValidation.validate(request)
///         return request
///     }
/// }
/// ```
public protocol ConfigurableRequestSerializer: RequestSerializing {
    /// The shared options and default headers.
    var configuration: RequestSerializerConfiguration { get set }
}

extension ConfigurableRequestSerializer {
    /// The default headers added to every request that does not set them itself.
    public var httpRequestHeaders: [String: String] { configuration.httpRequestHeaders }

    /// The default header `field`, compared case-insensitively.
    public func value(forHTTPHeaderField field: String) -> String? {
        configuration.value(forHTTPHeaderField: field)
    }

    /// Sets (or with `nil`, removes) a default header. A header set on a request itself wins
    /// over the default.
    public mutating func setValue(_ value: String?, forHTTPHeaderField field: String) {
        configuration.setValue(value, forHTTPHeaderField: field)
    }

    /// Sets a default `Authorization: Basic …` header (RFC 7617) from `username` and
    /// `password`, encoded as UTF-8. RFC 7617 forbids a colon in the user name: the server
    /// would split at it.
    public mutating func setAuthorizationHeader(username: String, password: String) {
        setValue(
            DefaultHeaders.basicAuthorization(username: username, password: password),
            forHTTPHeaderField: "Authorization"
        )
    }

    /// Removes the default `Authorization` header.
    public mutating func clearAuthorizationHeader() {
        setValue(nil, forHTTPHeaderField: "Authorization")
    }

    /// The percent-escaped query string this serializer writes for `parameters` with the
    /// built-in encoding (AFNetworking's `AFQueryStringFromParameters`), without a leading `?`.
    public func queryString(from parameters: Parameters) throws -> String {
        try QueryStringEncoder(configuration: configuration).queryString(from: parameters)
    }

    /// Builds a request for `method` and `urlString` and encodes `parameters` into it
    /// (AFNetworking's `requestWithMethod:URLString:parameters:error:`).
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().request(method: "GET", urlString: "https://api.example.com/search",
    ///                                                     parameters: ["q": "gannet", "page": 2])
    /// // https://api.example.com/search?page=2&q=gannet
    /// ```
    ///
    /// - Throws: `GannetError(.invalidRequest)` when `urlString` is not a URL or the request
    ///   cannot be sent; any error of `RequestSerializing.request(byEncoding:into:)`.
    public func request(method: String, urlString: String, parameters: Parameters? = nil) throws -> URLRequest {
        try request(byEncoding: parameters, into: makeRequest(method: method, urlString: urlString))
    }

    /// A new request for `method` and `urlString`, before any option or parameter is applied.
    ///
    /// A space or control character in `urlString` is refused rather than percent-encoded: it
    /// is more likely a splicing mistake (or an attack) than a path. Other characters a URL
    /// cannot hold, such as non-ASCII letters, are percent-encoded as UTF-8 by `URL(string:)`.
    func makeRequest(method: String, urlString: String) throws -> URLRequest {
        let hasControlOrSpace = urlString.unicodeScalars.contains { $0.value <= 0x20 || $0.value == 0x7F }
        guard !hasControlOrSpace, let url = URL(string: urlString) else {
            throw RequestValidation.invalidRequest("\(RequestValidation.printable(urlString)) is not a valid URL", nil)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        return request
    }

    /// `request` with the configuration applied: default headers the request does not carry,
    /// and the timeout, cache policy and cookie options where the request still has
    /// `URLRequest`'s defaults. Call it first in a custom `request(byEncoding:into:)`, passing
    /// the request on (`prepare(consume request)`) so that it is changed in place.
    ///
    /// - Throws: `GannetError(.invalidHeader)` when a default header cannot be sent (checked
    ///   here because `URLRequest` silently drops a value holding CR or LF).
    public func prepare(_ request: consuming URLRequest) throws -> URLRequest {
        // The defaults are merged into the request's fields and written once, as `setValue`
        // would have stored them, not through `setValue`: Foundation's lowercases and
        // capitalizes every name at every call.
        let own = request.allHTTPHeaderFields ?? [:]
        var fields = own
        for header in configuration.headersToApply
        where !own.keys.contains(where: { ASCII.equalsIgnoringCase($0, header.name) }) {
            if !header.isValid {
                try RequestValidation.validateHeader(name: header.name, value: header.value, in: request)
            }
            if fields.count == own.count {
                // The first default added: room for every one at once. Grown an insertion at a
                // time, the table was reallocated and its keys hashed again: 943 instructions of
                // 4,519 for two defaults (callgrind, docs/performance.md).
                fields.reserveCapacity(own.count + configuration.headersToApply.count)
            }
            fields[header.canonicalName] = header.value
        }
        if fields.count != own.count { request.allHTTPHeaderFields = fields }
        let defaults = DefaultURLRequest.value
        if let timeout = configuration.timeoutInterval, request.timeoutInterval == defaults.timeoutInterval {
            request.timeoutInterval = timeout
        }
        if let cachePolicy = configuration.cachePolicy, request.cachePolicy == defaults.cachePolicy {
            request.cachePolicy = cachePolicy
        }
        if let cookies = configuration.httpShouldHandleCookies,
            request.httpShouldHandleCookies == defaults.httpShouldHandleCookies
        {
            request.httpShouldHandleCookies = cookies
        }
        return request
    }

    /// Whether `request`'s method takes its parameters in the query string.
    func encodesParametersInURI(_ request: URLRequest) -> Bool {
        configuration.methodsEncodingParametersInURI.contains((request.httpMethod ?? "GET").uppercased())
    }
}

/// A request as `URLRequest` makes it: its timeout, cache policy and cookie handling are the
/// defaults that ``ConfigurableRequestSerializer/prepare(_:)`` replaces with configured values.
/// Made once; a `URLRequest` made per request cost more than the comparisons.
private enum DefaultURLRequest {
    static let value = URLRequest(url: URL(fileURLWithPath: "/"))
}
