import Gannet

/// The head of a request or a response as httpie prints it: a start line, then
/// `Name: value` lines.
enum MessageFormatter {
    /// `GET /path?query HTTP/1.1`, `Host`, then the request's headers sorted by name.
    static func requestHead(_ request: URLRequest, palette: Palette) -> String {
        let url = request.url
        let components = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        var target = components?.percentEncodedPath.nonEmpty ?? "/"
        if let query = components?.percentEncodedQuery { target += "?" + query }
        var lines = [palette.method(request.httpMethod ?? "GET") + " " + target + " HTTP/1.1"]
        var headers = request.allHTTPHeaderFields ?? [:]
        if let host = url?.host, !headers.keys.contains(where: { $0.lowercased() == "host" }) {
            headers["Host"] = url?.port.map { "\(host):\($0)" } ?? host
        }
        for (name, value) in headers.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            lines.append(palette.headerName(name) + ": " + value)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `HTTP/1.1 200 OK` and the response's headers sorted by name.
    static func responseHead(_ response: HTTPURLResponse, httpVersion: String?, palette: Palette) -> String {
        let version = httpVersion ?? "HTTP/1.1"
        let status = "\(response.statusCode) \(reasonPhrase(response.statusCode))"
        var lines = [version + " " + palette.status(status, code: response.statusCode)]
        let headers = response.allHeaderFields.compactMap { key, value -> (String, String)? in
            guard let name = key as? String else { return nil }
            return (name, "\(value)")
        }
        for (name, value) in headers.sorted(by: { $0.0.lowercased() < $1.0.lowercased() }) {
            lines.append(palette.headerName(name) + ": " + value)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The RFC 9110 reason phrase of `code` (servers' own phrases are not kept by the engine).
    static func reasonPhrase(_ code: Int) -> String {
        reasonPhrases[code] ?? ""
    }

    private static let reasonPhrases: [Int: String] = [
        100: "Continue", 101: "Switching Protocols", 200: "OK", 201: "Created", 202: "Accepted",
        203: "Non-Authoritative Information", 204: "No Content", 205: "Reset Content", 206: "Partial Content",
        300: "Multiple Choices", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request", 401: "Unauthorized",
        402: "Payment Required", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        406: "Not Acceptable", 407: "Proxy Authentication Required", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable", 417: "Expectation Failed",
        418: "I'm a Teapot", 421: "Misdirected Request", 422: "Unprocessable Content", 425: "Too Early",
        426: "Upgrade Required", 428: "Precondition Required", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 451: "Unavailable For Legal Reasons",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
