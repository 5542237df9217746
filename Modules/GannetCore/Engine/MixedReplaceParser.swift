/// Splits a `multipart/x-mixed-replace` body into parts as its bytes arrive, however the reads
/// cut it: a value type with no I/O, so boundaries split across reads, preambles, epilogues and
/// a missing final boundary are tested without a socket (docs/core.md, "x-mixed-replace").
///
/// A part's body is emitted as it arrives, except the last `delimiter.count - 1` bytes, which
/// could be the start of the next delimiter and are held until more bytes (or ``finish()``)
/// tell.
struct MixedReplaceParser {
    enum Event: Equatable {
        /// A part begins, with its header fields in arrival order.
        case partHead([HeaderField])
        /// Bytes of the current part's body.
        case partBody([UInt8])
        /// The current part is complete.
        case partEnd
    }

    struct HeaderField: Equatable {
        var name: String
        var value: String
    }

    private enum State {
        case preamble, headers, body, epilogue
    }

    /// The largest header block of one part.
    static let maximumHeaderBytes = 64 << 10

    /// `CRLF--boundary`: a delimiter always starts on a new line; the parser pretends the body
    /// starts with a CRLF, so a first boundary on the first line is found too.
    private let delimiter: [UInt8]
    private let maximumPartBytes: Int64
    private var state = State.preamble
    private var buffer: [UInt8] = Array("\r\n".utf8)
    private var partBytes: Int64 = 0

    /// The boundary of a `multipart/x-mixed-replace` content type, or `nil` for another type.
    static func boundary(contentType: String) -> String? {
        // Asked about every data task's response: a type that is not multipart is refused
        // without splitting or trimming anything (that parse was 13% of a small request's
        // instructions, callgrind, docs/performance.md).
        guard contentType.utf8.withContiguousStorageIfAvailable(Self.mayBeMixedReplace) ?? true else { return nil }
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = parts.first, type.lowercased() == "multipart/x-mixed-replace" else { return nil }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else {
                continue
            }
            var value = pair[1].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value.isEmpty || value.utf8.count > 200 ? nil : value
        }
        return nil
    }

    /// Whether a `Content-Type` value of these bytes, after optional whitespace, starts with
    /// `multipart/` (case-insensitively).
    static func mayBeMixedReplace(_ contentType: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0
        while start < contentType.count, contentType[start] == 0x20 || contentType[start] == 0x09 { start += 1 }
        let prefix: StaticString = "multipart/"
        guard contentType.count - start >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { expected in
            expected.indices.allSatisfy { contentType[start + $0] | 0x20 == expected[$0] | 0x20 }
        }
    }

    /// `maximumPartBytes` limits each part's body: a part over it throws `.bodyTooLarge`.
    init(boundary: String, maximumPartBytes: Int64) {
        delimiter = Array("\r\n--\(boundary)".utf8)
        self.maximumPartBytes = maximumPartBytes
    }

    /// Takes the next bytes of the body; returns what they completed.
    mutating func consume(_ bytes: UnsafeRawBufferPointer) throws -> [Event] {
        if state == .epilogue { return [] }
        buffer.append(contentsOf: bytes)
        return try drain(atEnd: false)
    }

    /// The body ended: the part in progress, if any, ends here even without a final boundary.
    mutating func finish() throws -> [Event] {
        try drain(atEnd: true)
    }

    private mutating func drain(atEnd: Bool) throws -> [Event] {
        var events: [Event] = []
        while true {
            switch state {
            case .epilogue:
                buffer.removeAll()
                return events
            case .preamble:
                guard let found = find(delimiter) else {
                    // Keep only what could still begin a delimiter.
                    buffer.removeFirst(max(0, buffer.count - (delimiter.count - 1)))
                    return events
                }
                buffer.removeFirst(found)
                guard try delimiterLine() else { return events }
            case .headers:
                // A blank first line: a part without headers.
                let bare = buffer.count >= 2 && buffer[0] == 0x0D && buffer[1] == 0x0A
                guard let end = bare ? -2 : find(Array("\r\n\r\n".utf8)) else {
                    if buffer.count > Self.maximumHeaderBytes {
                        throw GannetError(.headersTooLarge, "A part's headers exceed \(Self.maximumHeaderBytes) bytes")
                    }
                    if atEnd { buffer.removeAll() }
                    return events
                }
                let block = end < 0 ? [] : Array(buffer[..<end])
                buffer.removeFirst(end < 0 ? 2 : end + 4)
                events.append(.partHead(try Self.fields(block)))
                partBytes = 0
                state = .body
            case .body:
                if let found = find(delimiter) {
                    try emitBody(count: found, into: &events)
                    events.append(.partEnd)
                    guard try delimiterLine() else { return events }
                } else {
                    let safe = atEnd ? buffer.count : max(0, buffer.count - (delimiter.count - 1))
                    if safe > 0 { try emitBody(count: safe, into: &events) }
                    if atEnd {
                        events.append(.partEnd)
                        state = .epilogue
                    }
                    return events
                }
            }
        }
    }

    /// At a delimiter: reads the rest of its line. Returns `false` when more bytes are needed.
    private mutating func delimiterLine() throws -> Bool {
        let after = delimiter.count
        guard buffer.count >= after + 2 else { return false }
        if buffer[after] == UInt8(ascii: "-"), buffer[after + 1] == UInt8(ascii: "-") {
            state = .epilogue
            buffer.removeAll()
            return true
        }
        // Transport padding (spaces, tabs) may follow the boundary before the CRLF.
        guard let lineEnd = find(Array("\r\n".utf8), from: after) else {
            if buffer.count > after + 256 {
                throw GannetError(.protocolViolation, "A multipart boundary line does not end")
            }
            return false
        }
        buffer.removeFirst(lineEnd + 2)
        state = .headers
        return true
    }

    private mutating func emitBody(count: Int, into events: inout [Event]) throws {
        guard count > 0 else { return }
        partBytes += Int64(count)
        if partBytes > maximumPartBytes {
            throw GannetError(.bodyTooLarge, "A part of the response exceeds \(maximumPartBytes) bytes")
        }
        events.append(.partBody(Array(buffer[..<count])))
        buffer.removeFirst(count)
    }

    private func find(_ needle: [UInt8], from start: Int = 0) -> Int? {
        guard buffer.count >= needle.count + start else { return nil }
        var index = start
        let last = buffer.count - needle.count
        while index <= last {
            if buffer[index] == needle[0] {
                var matched = true
                for offset in 1..<needle.count where buffer[index + offset] != needle[offset] {
                    matched = false
                    break
                }
                if matched { return index }
            }
            index += 1
        }
        return nil
    }

    private static func fields(_ block: [UInt8]) throws -> [HeaderField] {
        var fields: [HeaderField] = []
        for line in block.split(separator: 0x0A, omittingEmptySubsequences: true) {
            var line = Array(line)
            if line.last == 0x0D { line.removeLast() }
            if line.isEmpty { continue }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0,
                line[..<colon].allSatisfy(HTTPSyntax.isTokenByte)
            else {
                throw GannetError(.protocolViolation, "A part of the response has a malformed header line")
            }
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            fields.append(HeaderField(name: String(decoding: line[..<colon], as: UTF8.self), value: value))
        }
        return fields
    }
}

extension MixedReplaceParser {
    /// The head of a part with `fields`: a response of its own with the status, version and
    /// reason of the `outer` head that announced the parts, as NSURLSession makes it.
    static func head(of fields: [HeaderField], in outer: ResponseHead) -> ResponseHead {
        ResponseHead(
            statusCode: outer.statusCode,
            httpVersion: outer.httpVersion,
            fields: fields.map { ($0.name, $0.value) },
            reasonPhrase: outer.reasonPhrase
        )
    }
}
