/// A response head as the server sent it: the status line's parts and every header field in
/// arrival order, repeated names kept apart (`HTTPURLResponse` merges them into a dictionary
/// and forgets the reason phrase). Users read its values through `DataResponse`
/// (`reasonPhrase`, `headerFields`, `httpVersion`); a tool that shows a response, like
/// `gannet`, prints this rather than a reconstruction.
///
/// Parsed heads are turned into an `HTTPURLResponse` only when someone needs one, because
/// Foundation's initializer is the most expensive step of a small exchange.
package struct ResponseHead: Equatable, Sendable {
    /// The status code.
    package var statusCode: Int
    /// The version from the status line: `HTTP/1.1`, `HTTP/1.0`, `HTTP/2`.
    package var httpVersion: String
    /// Header fields in arrival order, names as sent, duplicates kept; a folded (obs-fold)
    /// line is joined to its field with a space.
    package let fields: Fields
    /// The reason phrase as sent (`OK`, `FOUND`, `Teapot`), or empty: HTTP/2 has none. Kept at
    /// the start of the fields' bytes (``Fields``).
    package var reasonPhrase: String { fields.reasonPhrase }

    /// A head as parsed (the engine's parser, a cached response).
    package init(
        statusCode: Int,
        httpVersion: String,
        fields: [(name: String, value: String)],
        reasonPhrase: String = ""
    ) {
        let fields = Fields(fields, reasonPhrase: reasonPhrase)
        self.init(
            statusCode: statusCode,
            httpVersion: httpVersion,
            fields: fields,
            contentLength: fields.firstValue(named: "Content-Length")
        )
    }

    /// A head whose first `Content-Length` value (`nil`: none) its parser already found while
    /// reading the fields (which begin with the reason phrase): searching them again cost about
    /// 900 instructions a response (docs/performance.md).
    package init(statusCode: Int, httpVersion: String, fields: Fields, contentLength: String?) {
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.fields = fields
        expectedContentLength = contentLength.flatMap { Int64($0) }.flatMap { $0 >= 0 ? $0 : nil } ?? -1
    }

    /// Equal status lines and equal fields in the same order.
    package static func == (a: ResponseHead, b: ResponseHead) -> Bool {
        a.statusCode == b.statusCode && a.httpVersion == b.httpVersion && a.reasonPhrase == b.reasonPhrase
            && a.fields == b.fields
    }

    /// The first value of `name`, compared case-insensitively.
    package func value(_ name: String) -> String? {
        fields.firstValue(named: name)
    }

    /// The declared body length, `-1` when absent or invalid. Found once, when the head is
    /// made: the sink, the task's counters and its progress each read it for every response
    /// (three lookups and parses cost 1,200 instructions a request more, docs/performance.md).
    package let expectedContentLength: Int64

    /// Fields merged the way `HTTPURLResponse` wants them: repeated names joined by ", ".
    package var mergedFields: [String: String] {
        var merged: [String: String] = [:]
        var canonical: [String: String] = [:]
        for (name, value) in fields {
            let key = name.lowercased()
            if let existing = canonical[key] {
                merged[existing]! += ", " + value
            } else {
                canonical[key] = name
                merged[name] = value
            }
        }
        return merged
    }

    package func makeResponse(url: URL) -> HTTPURLResponse? {
        HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: mergedFields)
    }
}
