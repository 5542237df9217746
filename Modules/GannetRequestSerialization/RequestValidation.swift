/// The checks every serializer in this module runs on the request it returns, so that nothing
/// is sent that the caller did not mean: libcurl 7.88 sends a header holding CR LF as written,
/// which lets a value smuggle a second header or a second request.
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
public enum RequestValidation {
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
        try validateURL(of: request)
        let method = request.httpMethod ?? "GET"
        if !isValidMethod(method) {
            throw invalidRequest("The method \(printable(method)) is not an HTTP token (RFC 9110 §9.1)", request)
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            try validateHeader(name: name, value: value, in: request)
        }
    }

    /// Whether `name` is an RFC 9110 field name: a non-empty token.
    /// https://www.rfc-editor.org/rfc/rfc9110.html#name-field-names
    public static func isValidHeaderName(_ name: String) -> Bool {
        HTTPSyntax.isToken(name)
    }

    /// Whether `value` may be sent as a field value: no control characters other than
    /// horizontal tab (so no CR, LF or NUL). Bytes above 0x7F (RFC 9110 `obs-text`) are allowed
    /// and sent as UTF-8.
    /// https://www.rfc-editor.org/rfc/rfc9110.html#name-field-values
    public static func isValidHeaderValue(_ value: String) -> Bool {
        HTTPSyntax.isFieldValue(value)
    }

    /// Whether `method` is an RFC 9110 method: a non-empty token.
    /// https://www.rfc-editor.org/rfc/rfc9110.html#name-methods
    public static func isValidMethod(_ method: String) -> Bool {
        isValidHeaderName(method)
    }

    /// Throws `GannetError(.invalidHeader)` when `name` or `value` cannot be sent.
    static func validateHeader(name: String, value: String, in request: URLRequest?) throws {
        if !isValidHeaderName(name) {
            throw invalidHeader("The header name \(printable(name)) is not an HTTP token (RFC 9110 §5.1)", request)
        }
        if !isValidHeaderValue(value) {
            // The value itself stays out of the message: it may be a credential.
            throw invalidHeader("The value of header \(name) contains CR, LF, NUL or another control character", request)
        }
    }

    private static func validateURL(of request: URLRequest) throws {
        guard let url = request.url else {
            throw invalidRequest("The request has no URL", request)
        }
        // Foundation percent-encodes most bad characters when it parses a string, but a URL can
        // still arrive holding raw ones (built from other APIs); curl would send them verbatim.
        if let bad = url.absoluteString.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value >= 0x7F }) {
            throw invalidRequest("The URL contains the character \(printable(String(bad))), which cannot be sent", request)
        }
        let scheme = url.scheme?.lowercased()
        guard scheme == "http" || scheme == "https" else { return }
        guard let host = url.host, !host.isEmpty else {
            throw invalidRequest("The URL has no host", request)
        }
        if host.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            throw invalidRequest("The URL's host decodes to control characters or spaces", request)
        }
        if let port = url.port, !(0...65535).contains(port) {
            throw invalidRequest("The URL's port \(port) is out of range", request)
        }
    }

    /// `text` with control and non-ASCII characters written as `\u{…}`, safe for a one-line message.
    static func printable(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars.prefix(64) {
            if scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\"" {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        if text.unicodeScalars.count > 64 { result += "…" }
        return result + "\""
    }

    static func invalidHeader(_ message: String, _ request: URLRequest?) -> GannetError {
        GannetError(
            .invalidHeader, message, failingURL: request?.url,
            underlyingError: RequestSerializationError(.invalidHeader, message, failingRequest: request))
    }

    static func invalidRequest(_ message: String, _ request: URLRequest?) -> GannetError {
        GannetError(
            .invalidRequest, message, failingURL: request?.url,
            underlyingError: RequestSerializationError(.invalidRequest, message, failingRequest: request))
    }
}
