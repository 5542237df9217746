import Gannet

/// The head of a request or a response as httpie prints it: a start line, then
/// `Name: value` lines, values with their control characters escaped (``ControlEscaping``).
enum MessageFormatter {
    /// `GET /path?query HTTP/2`, `Host`, then the request's headers sorted by name.
    /// `httpVersion` is the protocol the exchange used (from the task's metrics); HTTP/1.1 when
    /// nothing was exchanged.
    static func requestHead(_ request: URLRequest, httpVersion: String?, palette: Palette) -> String {
        let url = request.url
        let components = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        var target = components?.percentEncodedPath.nonEmpty ?? "/"
        if let query = components?.percentEncodedQuery { target += "?" + query }
        let version = httpVersion?.nonEmpty ?? "HTTP/1.1"
        // After a redirect the target and headers are partly the server's (Location, cookies).
        var lines = [
            palette.method(ControlEscaping.escaped(request.httpMethod ?? "GET")) + " " + ControlEscaping.escaped(target)
                + " " + ControlEscaping.escaped(version)
        ]
        var headers = request.allHTTPHeaderFields ?? [:]
        if let host = url?.host, !headers.keys.contains(where: { $0.lowercased() == "host" }) {
            headers["Host"] = url?.port.map { "\(host):\($0)" } ?? host
        }
        for (name, value) in headers.sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            lines.append(palette.headerName(ControlEscaping.escaped(name)) + ": " + ControlEscaping.escaped(value))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The response's status line and headers as the server sent them: its own reason phrase
    /// (none over HTTP/2) and every field in wire order, duplicates kept. Without a parsed
    /// head (never the case for a response from the engine), `response`'s merged fields sorted
    /// by name and no reason phrase: gannet never makes one up.
    static func responseHead(
        _ response: HTTPURLResponse,
        head: ResponseHead?,
        httpVersion: String?,
        palette: Palette
    ) -> String {
        let version = head?.httpVersion.nonEmpty ?? httpVersion ?? "HTTP/1.1"
        let reason = head.map { ControlEscaping.escaped($0.reasonPhrase) } ?? ""
        let status = reason.isEmpty ? "\(response.statusCode)" : "\(response.statusCode) \(reason)"
        var lines = [ControlEscaping.escaped(version) + " " + palette.status(status, code: response.statusCode)]
        let fields: [(name: String, value: String)]
        if let head {
            fields = Array(head.fields)
        } else {
            fields = response.allHeaderFields.compactMap { key, value -> (name: String, value: String)? in
                guard let name = key as? String else { return nil }
                return (name, "\(value)")
            }.sorted { $0.name.lowercased() < $1.name.lowercased() }
        }
        for (name, value) in fields {
            lines.append(palette.headerName(ControlEscaping.escaped(name)) + ": " + ControlEscaping.escaped(value))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `418 I'm a teapot` for messages: the code and the server's reason phrase, escaped,
    /// when it sent one and it is known.
    static func statusText(_ code: Int, head: ResponseHead?) -> String {
        let reason = head.map { ControlEscaping.escaped($0.reasonPhrase) } ?? ""
        return reason.isEmpty ? "\(code)" : "\(code) \(reason)"
    }
}

extension String {
    var nonEmpty: String? { isEmpty ? nil : self }
}
