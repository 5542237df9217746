/// AFHTTPRequestSerializer: parameters into the query string for `GET`, `HEAD` and `DELETE`,
/// into an `application/x-www-form-urlencoded` body for other methods.
///
/// ```swift
/// var serializer = HTTPRequestSerializer()
/// serializer.setAuthorizationHeader(username: "user", password: "secret")
/// let search = try serializer.request(method: "GET", urlString: "http://127.0.0.1:8080/get",
///                                     parameters: ["q": "a+b", "tags": ["x", "y"]])
/// // http://127.0.0.1:8080/get?q=a%2Bb&tags%5B%5D=x&tags%5B%5D=y
/// let form = try serializer.request(method: "POST", urlString: "http://127.0.0.1:8080/post",
///                                   parameters: ["name": "Gannet"])
/// // body "name=Gannet", Content-Type: application/x-www-form-urlencoded; charset=utf-8
/// ```
///
/// The body gets a `Content-Type` only when the request has none; `parameters: [:]` gives an
/// empty body (still a form), `nil` gives no body at all. Keys and values are escaped as
/// AFNetworking 3 and 4 do, brackets included (`tags%5B%5D`): servers decode them back to `tags[]`.
///
/// A value type: configure a copy, hand it to a session manager, and the manager's copy never
/// changes under a request in flight. It is `Sendable` without locks because there is no shared
/// mutable state (AFNetworking's mutable serializer needed KVO and copying for the same reason).
public struct HTTPRequestSerializer: ConfigurableRequestSerializer {
    /// The options and default headers.
    public var configuration: RequestSerializerConfiguration

    /// Creates a serializer with `configuration` (by default `Accept-Language` and `User-Agent`
    /// headers, `key[]` arrays, `1`/`0` booleans, `%20` spaces, UTF-8).
    public init(configuration: RequestSerializerConfiguration = RequestSerializerConfiguration()) {
        self.configuration = configuration
    }

    /// Returns `request` with the default headers and options applied and `parameters` in its
    /// query string or body, after `RequestValidation.validate(_:)`.
    public func request(byEncoding parameters: Parameters?, into request: consuming URLRequest) throws -> URLRequest {
        var request = try prepare(consume request)
        if let parameters {
            if parameters.topLevelArray != nil {
                throw RequestSerializationError(
                    .parameterEncodingFailed,
                    "A top-level array (Parameters.jsonArray) is only a JSON body; a query string or a form needs names",
                    failingRequest: request
                )
            }
            let query = try configuration.query(for: parameters, in: request)
            if encodesParametersInURI(request) {
                request = try configuration.appendingQuery(query, to: request)
            } else {
                if request.value(forHTTPHeaderField: "Content-Type") == nil {
                    request.setValue(configuration.formContentType, forHTTPHeaderField: "Content-Type")
                }
                // The escaped text is ASCII whatever the string encoding; the charset says how
                // to read the bytes behind the %XX escapes.
                request.httpBody = Data(query.utf8)
            }
        }
        try RequestValidation.validate(request)
        return request
    }
}
