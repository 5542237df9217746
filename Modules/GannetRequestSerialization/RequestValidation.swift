/// The checks every serializer in this module runs on the request it returns, so that nothing
/// is sent that the caller did not mean: libcurl 7.88 sends a header holding CR LF as written,
/// which lets a value smuggle a second header or a second request. The rules are
/// ``GannetCore/RequestValidation``'s, the same the engine applies.
///
/// A custom ``GannetCore/RequestSerializing`` can end with the same check:
///
/// ```swift
/// func request(byEncoding parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
///     var request = request
///     request.httpBody = try encode(parameters)
///     try RequestValidation.validate(request)
///     return request
/// }
/// ```
extension RequestValidation {
    /// Throws when `request` cannot be sent as written:
    ///
    /// - `GannetError(.invalidRequest)`: no URL; a URL with a character outside printable ASCII
    ///   (control characters, space, DEL, raw non-ASCII); an `http`/`https` URL without a host, with
    ///   a host that decodes to control characters or spaces (`http://a%0Ab/`), or with a port
    ///   above 65535; a method that is empty or not an RFC 9110 token.
    /// - `GannetError(.invalidHeader)`: a header name that is not a token, or a value holding
    ///   CR, LF, NUL or another control character other than horizontal tab.
    ///
    /// The error's `failingRequest` is `request`. Schemes other than `http` and `https` are left
    /// to the engine, which refuses them with `.unsupportedScheme`.
    public static func validate(_ request: URLRequest) throws {
        let fields = request.allHTTPHeaderFields ?? [:]
        if let problem = problem(method: request.httpMethod ?? "GET", url: request.url, headerFields: fields) {
            throw error(problem.code, problem.message, request)
        }
    }

    /// Throws `GannetError(.invalidHeader)` when `name` or `value` cannot be sent.
    static func validateHeader(name: String, value: String, in request: URLRequest?) throws {
        if let problem = problem(headerName: name, value: value) {
            throw error(problem.code, problem.message, request)
        }
    }

    static func invalidHeader(_ message: String, _ request: URLRequest?) -> GannetError {
        error(.invalidHeader, message, request)
    }

    static func invalidRequest(_ message: String, _ request: URLRequest?) -> GannetError {
        error(.invalidRequest, message, request)
    }

    /// A `GannetError` with `code` whose underlying `RequestSerializationError` keeps `request`
    /// (see ``GannetCore/GannetError/failingRequest``).
    private static func error(_ code: GannetError.Code, _ message: String, _ request: URLRequest?) -> GannetError {
        let serializationCode: RequestSerializationError.Code =
            code == .invalidHeader ? .invalidHeader : .invalidRequest
        return GannetError(
            code,
            message,
            failingURL: request?.url,
            underlyingError: RequestSerializationError(serializationCode, message, failingRequest: request)
        )
    }
}
