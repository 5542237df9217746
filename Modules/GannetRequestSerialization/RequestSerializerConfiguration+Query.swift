extension RequestSerializerConfiguration {
    /// The query string for `parameters`: the custom ``queryStringSerialization`` when set,
    /// the built-in encoding otherwise. Errors keep `request` as the failing request.
    func query(for parameters: Parameters, in request: URLRequest) throws -> String {
        guard let custom = queryStringSerialization else {
            do {
                return try QueryStringEncoder(configuration: self).queryString(from: parameters)
            } catch let error as RequestSerializationError {
                throw error.withFailingRequest(request)
            }
        }
        do {
            return try custom.serialize(request, parameters)
        } catch {
            throw RequestSerializationError(
                .queryStringSerializationFailed,
                "The custom query string serialization failed",
                failingRequest: request,
                underlyingError: error
            )
        }
    }

    /// `request` with `query` appended to its URL's query (after `&` when it has one), before
    /// any fragment. An empty `query` leaves the URL as it is (AFNetworking 3 and later).
    ///
    /// - Throws: ``RequestSerializationError/Code/queryStringSerializationFailed`` when a custom
    ///   query holds characters a URL cannot (space, `#`, control or non-ASCII characters).
    func appendingQuery(_ query: String, to request: URLRequest) throws -> URLRequest {
        guard !query.isEmpty, let url = request.url else { return request }
        var text = url.absoluteString
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = String(text[hash...])
            text = String(text[..<hash])
        }
        text += (url.query == nil ? "?" : (text.hasSuffix("?") || text.hasSuffix("&") ? "" : "&")) + query + fragment
        // encodingInvalidCharacters: false, so that a bad custom query is refused rather than
        // silently rewritten.
        guard !query.contains("#"), let newURL = URL(string: text, encodingInvalidCharacters: false) else {
            throw RequestSerializationError(
                .queryStringSerializationFailed,
                "The query string holds characters that are not allowed in a URL; percent-escape them",
                failingRequest: request
            )
        }
        var request = request
        request.url = newURL
        return request
    }

    /// `application/x-www-form-urlencoded; charset=…`, the charset named after ``stringEncoding``.
    var formContentType: String {
        guard let charset = stringEncoding.ianaCharsetName else { return "application/x-www-form-urlencoded" }
        return "application/x-www-form-urlencoded; charset=\(charset)"
    }
}
