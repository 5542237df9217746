/// Parses header lines as libcurl delivers them, one block per response (informational 1xx
/// blocks, redirects, the final response), enforcing Gannet's limits. A value type with no
/// I/O, so every malformed case is testable without a socket.
struct ResponseHeadParser {
    struct Head: Equatable {
        var statusCode: Int
        var httpVersion: String
        /// Header fields in arrival order, names as sent.
        var fields: [(name: String, value: String)]

        static func == (a: Head, b: Head) -> Bool {
            a.statusCode == b.statusCode && a.httpVersion == b.httpVersion
                && a.fields.elementsEqual(b.fields, by: { $0.name == $1.name && $0.value == $1.value })
        }

        /// The first value of `name`, compared case-insensitively.
        func value(_ name: String) -> String? {
            fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// Fields merged the way `HTTPURLResponse` wants them: repeated names joined by ", ".
        var mergedFields: [String: String] {
            var merged: [String: String] = [:]
            var canonical: [String: String] = [:]
            for (name, value) in fields {
                let key = name.lowercased()
                if let existing = canonical[key] {
                    merged[existing] = merged[existing]! + ", " + value
                } else {
                    canonical[key] = name
                    merged[name] = value
                }
            }
            return merged
        }
    }

    enum Event: Equatable {
        /// More lines are needed.
        case needMore
        /// An informational (1xx) block ended; its lines are discarded.
        case informational(Int)
        /// A complete non-1xx response head.
        case complete(Head)
    }

    let limits: SessionConfiguration.Limits
    private var statusLine: (code: Int, version: String)?
    private var fields: [(name: String, value: String)] = []
    private var headerBytes = 0
    private var informationalCount = 0
    private var contentLength: String?

    init(limits: SessionConfiguration.Limits) {
        self.limits = limits
    }

    /// Feeds one line, CRLF included or not. Throws `GannetError` on a violation or limit.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) throws -> Event {
        headerBytes += bytes.count
        if headerBytes > limits.maximumHeaderBytes {
            throw GannetError(.headersTooLarge, "The response headers exceed \(limits.maximumHeaderBytes) bytes")
        }
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeRawBufferPointer(rebasing: bytes[0..<end])
        if line.contains(0) {
            throw GannetError(.protocolViolation, "The response has a NUL byte in its headers")
        }

        if line.isEmpty {
            guard let status = statusLine else {
                // A blank line with no status line before it: curl re-delivers the terminating
                // blank line after an unpause; the caller ignores it.
                return .needMore
            }
            defer { reset() }
            if (100..<200).contains(status.code) && status.code != 101 {
                informationalCount += 1
                if informationalCount > limits.maximumInformationalResponses {
                    throw GannetError(.protocolViolation, "The server sent more than \(limits.maximumInformationalResponses) informational responses")
                }
                return .informational(status.code)
            }
            return .complete(Head(statusCode: status.code, httpVersion: status.version, fields: fields))
        }

        let text = String(decoding: line, as: UTF8.self)
        if statusLine == nil {
            statusLine = try Self.parseStatusLine(text)
            return .needMore
        }
        if text.first == " " || text.first == "\t" {
            // obs-fold: a continuation of the previous field's value (RFC 9112 §5.2).
            guard !fields.isEmpty else {
                throw GannetError(.protocolViolation, "The response starts its headers with a continuation line")
            }
            fields[fields.count - 1].value += " " + text.trimmingCharacters(in: .whitespaces)
            return .needMore
        }
        guard let colon = text.firstIndex(of: ":") else {
            throw GannetError(.protocolViolation, "The response has a header line without a colon")
        }
        let name = String(text[..<colon])
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard RequestValidation.isToken(name) else {
            throw GannetError(.protocolViolation, "The response has an invalid header name")
        }
        if fields.count >= limits.maximumHeaderCount {
            throw GannetError(.headersTooLarge, "The response has more than \(limits.maximumHeaderCount) header lines")
        }
        if name.caseInsensitiveCompare("Content-Length") == .orderedSame {
            if let previous = contentLength, previous != value {
                throw GannetError(.protocolViolation, "The response has conflicting Content-Length headers")
            }
            contentLength = value
        }
        fields.append((name, value))
        return .needMore
    }

    /// Whether a status line has been seen in the current block.
    var isInsideBlock: Bool { statusLine != nil }

    private mutating func reset() {
        statusLine = nil
        fields = []
        contentLength = nil
        headerBytes = 0
    }

    /// `HTTP/1.1 200 OK`, `HTTP/2 204`, `HTTP/1.0 404 Not Found`.
    static func parseStatusLine(_ line: String) throws -> (code: Int, version: String) {
        let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"),
              parts[1].count == 3, let code = Int(parts[1]), (100...999).contains(code) else {
            throw GannetError(.protocolViolation, "The response has a malformed status line \(String(line.prefix(80)).debugDescription)")
        }
        return (code, String(parts[0]))
    }
}
