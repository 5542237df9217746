#if canImport(Glibc)
internal import Glibc
#endif

/// Parses header lines as libcurl delivers them, one block per response (informational 1xx
/// blocks, redirects, the final response), enforcing Gannet's limits. A value type with no
/// I/O, so every malformed case is testable without a socket. Works on bytes: Foundation's
/// string trimming and case-insensitive comparison cost more than the whole HTTP exchange.
struct ResponseHeadParser {
    let limits: SessionConfiguration.Limits
    private var statusLine: (code: Int, version: String)?
    private var fields = ResponseHead.Fields()
    private var headerBytes = 0
    private var informationalCount = 0
    private var contentLength: String?
    /// The bytes and field lines of the final head, once it is complete: its trailers count on
    /// from there (``consumeTrailer(_:)``).
    private var finalHead: (bytes: Int, lines: Int)?

    enum Event: Equatable {
        /// More lines are needed.
        case needMore
        /// An informational (1xx) block ended; its lines are discarded.
        case informational(Int)
        /// A complete non-1xx response head.
        case complete(ResponseHead)
    }

    init(limits: SessionConfiguration.Limits) {
        self.limits = limits
    }

    /// Feeds one line, CRLF included or not. Throws `GannetError` on a violation or limit.
    mutating func consume(_ raw: UnsafeRawBufferPointer) throws -> Event {
        headerBytes += raw.count
        if headerBytes > limits.maximumHeaderBytes {
            throw GannetError(.headersTooLarge, "The response headers exceed \(limits.maximumHeaderBytes) bytes")
        }
        let bytes = raw.bindMemory(to: UInt8.self)
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: bytes[0..<end])
        if Self.index(of: 0, in: line) != nil {
            throw GannetError(.protocolViolation, "The response has a NUL byte in its headers")
        }
        // Trailing CR/LF are gone; a CR left is bare (RFC 9112 §2.2).
        if Self.index(of: 0x0D, in: line) != nil {
            throw GannetError(.protocolViolation, "The response has a bare CR in its headers")
        }

        if line.isEmpty {
            // A blank line outside a block is curl re-delivering the terminating line after
            // an unpause; it ends nothing.
            guard let status = statusLine else { return .needMore }
            defer { reset() }
            if (100..<200).contains(status.code) && status.code != 101 {
                informationalCount += 1
                if informationalCount > limits.maximumInformationalResponses {
                    throw GannetError(
                        .protocolViolation,
                        "The server sent more than \(limits.maximumInformationalResponses) informational responses"
                    )
                }
                return .informational(status.code)
            }
            finalHead = (headerBytes, fields.count)
            return .complete(
                ResponseHead(
                    statusCode: status.code,
                    httpVersion: status.version,
                    fields: fields,
                    contentLength: contentLength
                )
            )
        }

        if statusLine == nil {
            let status = try Self.parseStatusLine(line)
            statusLine = (status.code, status.version)
            // Room for a typical head: appending from empty reallocated four times for eight fields.
            fields = ResponseHead.Fields(reasonPhrase: status.reason, reservingFields: 16, bytes: 512)
            return .needMore
        }
        if line[0] == 0x20 || line[0] == 0x09 {
            // obs-fold: a continuation of the previous field's value (RFC 9112 §5.2).
            guard !fields.isEmpty else {
                throw GannetError(.protocolViolation, "The response starts its headers with a continuation line")
            }
            // One space stands for the fold, and only between two non-empty parts: a field value
            // has no leading or trailing whitespace (RFC 9110 §5.5), so a blank continuation
            // adds nothing (found by the response-head fuzz target, docs/reliability.md).
            let continuation = Self.trimmed(line)
            // A folded Content-Length would frame the body one way in the head the caller sees
            // ("5 10") and another in libcurl, and would slip past the conflicting-length check
            // above: RFC 9112 §6.3 makes an invalid Content-Length unrecoverable.
            if !continuation.isEmpty, fields.name(at: fields.count - 1, is: "content-length") {
                throw GannetError(.protocolViolation, "The response folds its Content-Length header over two lines")
            }
            if !continuation.isEmpty { fields.extendLastValue(with: continuation) }
            return .needMore
        }
        guard let colon = Self.index(of: UInt8(ascii: ":"), in: line) else {
            throw GannetError(.protocolViolation, "The response has a header line without a colon")
        }
        let nameBytes = UnsafeBufferPointer(rebasing: line[0..<colon])
        guard HTTPSyntax.isToken(nameBytes) else {
            throw GannetError(.protocolViolation, "The response has an invalid header name")
        }
        if fields.count >= limits.maximumHeaderCount {
            throw GannetError(.headersTooLarge, "The response has more than \(limits.maximumHeaderCount) header lines")
        }
        let value = Self.trimmed(line, from: colon + 1)
        if nameBytes.count == 14,
            ("content-length" as StaticString).withUTF8Buffer({ ASCII.equalsIgnoringCase(nameBytes, $0) })
        {
            let length = String(decoding: UnsafeBufferPointer(rebasing: line[value]), as: UTF8.self)
            if let previous = contentLength, previous != length {
                throw GannetError(.protocolViolation, "The response has conflicting Content-Length headers")
            }
            contentLength = length
        }
        fields.append(line: line, name: 0..<colon, value: value)
        return .needMore
    }

    /// Feeds one line that libcurl passes on after a complete head: a trailer field of a
    /// chunked body (RFC 9112 §7.1.2; HTTP/2's trailing HEADERS), or the blank lines that end
    /// the section or that libcurl delivers again after an unpause. Trailers are header fields
    /// of the same response (RFC 9110 §6.5), so they count against the same limits, on top of
    /// the head's bytes and lines: libcurl keeps every one it passes on and has no limit of its
    /// own, so without this count a server's endless trailers grew the process without end.
    /// Their content is not parsed: Gannet does not deliver trailers.
    mutating func consumeTrailer(_ raw: UnsafeRawBufferPointer) throws {
        var counted = finalHead ?? (0, 0)
        counted.bytes += raw.count
        let bytes = raw.bindMemory(to: UInt8.self)
        if let first = bytes.first, first != 0x0D, first != 0x0A { counted.lines += 1 }
        finalHead = counted
        if counted.bytes > limits.maximumHeaderBytes {
            throw GannetError(
                .headersTooLarge,
                "The response headers exceed \(limits.maximumHeaderBytes) bytes, trailers included"
            )
        }
        if counted.lines > limits.maximumHeaderCount {
            throw GannetError(
                .headersTooLarge,
                "The response has more than \(limits.maximumHeaderCount) header lines, trailers included"
            )
        }
    }

    private mutating func reset() {
        statusLine = nil
        fields = ResponseHead.Fields()
        contentLength = nil
        headerBytes = 0
    }

    /// The index of the first `byte` in `bytes`, found by libc's `memchr`. Each line is searched
    /// three times (a NUL, a bare CR, the colon); element by element that cost about 1,000
    /// instructions a response more (callgrind, docs/performance.md).
    private static func index(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(byte), bytes.count) else { return nil }
        return bytes.startIndex + (UnsafeRawPointer(found) - UnsafeRawPointer(base))
    }

    /// Where `line` from `start` lies without its leading and trailing spaces and tabs.
    private static func trimmed(_ line: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int> {
        var start = start
        var end = line.endIndex
        while start < end, line[start] == 0x20 || line[start] == 0x09 { start += 1 }
        while end > start, line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        return start..<end
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[trimmed(bytes, from: bytes.startIndex)])
    }

    /// `HTTP/1.1 200 OK`, `HTTP/2 204`, `HTTP/1.0 404 Not Found`: the code, the version and the
    /// server's own reason phrase (empty when it sent none, as HTTP/2 never does), the last a
    /// part of `line`.
    static func parseStatusLine(
        _ line: UnsafeBufferPointer<UInt8>
    ) throws -> (code: Int, version: String, reason: UnsafeBufferPointer<UInt8>) {
        var malformed: GannetError {
            GannetError(
                .protocolViolation,
                "The response has a malformed status line \(String(decoding: line.prefix(80), as: UTF8.self).debugDescription)"
            )
        }
        guard let space = line.firstIndex(of: 0x20), space >= 5,
            line[0] == UInt8(ascii: "H"), line[1] == UInt8(ascii: "T"), line[2] == UInt8(ascii: "T"),
            line[3] == UInt8(ascii: "P"), line[4] == UInt8(ascii: "/"),
            line.count >= space + 4
        else { throw malformed }
        var code = 0
        for index in (space + 1)...(space + 3) {
            let digit = line[index]
            guard digit >= 0x30 && digit <= 0x39 else { throw malformed }
            code = code * 10 + Int(digit - 0x30)
        }
        guard code >= 100, line.count == space + 4 || line[space + 4] == 0x20 else { throw malformed }
        let reason =
            line.count > space + 5
            ? trimmed(UnsafeBufferPointer(rebasing: line[(space + 5)...])) : UnsafeBufferPointer(start: nil, count: 0)
        return (code, String(decoding: UnsafeBufferPointer(rebasing: line[0..<space]), as: UTF8.self), reason)
    }
}
