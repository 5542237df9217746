/// Checks that a request can be sent exactly as the caller meant it, before anything is sent:
/// curl 7.88 would put a CR/LF from a header value on the wire as written (header injection),
/// and Foundation's `URL` accepts strings that become a different request on the wire.
enum RequestValidation {
    /// Validates method, URL and headers; throws `GannetError` naming the first problem.
    static func validate(method: String, url: URL, headers: [(String, String)]) throws {
        guard HTTPSyntax.isToken(method) else {
            throw GannetError(.invalidRequest, "The HTTP method \(method.debugDescription) is not a valid token", failingURL: url)
        }
        try validate(url: url)
        for (name, value) in headers {
            guard HTTPSyntax.isToken(name) else {
                throw GannetError(.invalidHeader, "The header name \(name.debugDescription) contains characters not allowed in a field name", failingURL: url)
            }
            guard HTTPSyntax.isFieldValue(value) else {
                throw GannetError(.invalidHeader, "The value of header \(name) contains CR, LF, NUL or another control character", failingURL: url)
            }
        }
    }

    /// Only absolute `http` and `https` URLs with a host, and no control characters or spaces.
    static func validate(url: URL) throws {
        let string = url.absoluteString
        for byte in string.utf8 where byte <= 0x20 || byte == 0x7F {
            throw GannetError(.invalidRequest, "The URL contains a space or a control character", failingURL: url)
        }
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw GannetError(.unsupportedScheme, "Only http and https URLs are supported, not \(url.scheme.map { "\($0):" } ?? "a relative URL")", failingURL: url)
        }
        guard let host = url.host, !host.isEmpty else {
            throw GannetError(.invalidRequest, "The URL has no host", failingURL: url)
        }
        // `host` is percent-decoded: `%0d%0a` in a host is a CR/LF nobody meant.
        for byte in host.utf8 where byte <= 0x20 || byte == 0x7F {
            throw GannetError(.invalidRequest, "The URL's host contains a space or a control character", failingURL: url)
        }
    }
}
