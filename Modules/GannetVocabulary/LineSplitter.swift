/// Cuts a byte stream into lines as its reads arrive, however the reads cut it: a value type
/// with no I/O, shared by the event-stream parser and the JSON Lines serializer
/// (docs/streaming.md).
///
/// A line that does not end within `maximumLineBytes` throws `StreamingError(.lineTooLong)`:
/// a server that never sends a line end cannot make the client hold more than that.
package struct LineSplitter: Sendable {
    /// Which bytes end a line.
    package enum Endings: Sendable {
        /// CR LF, LF, or CR alone: the event stream's rule (WHATWG HTML §9.2.5). A CR at the end
        /// of one read and an LF at the start of the next are one line end.
        case crLFOrEither
        /// LF, a CR before it dropped: NDJSON's and JSON Lines' rule, where a lone CR is
        /// whitespace inside a line.
        case lf
    }

    package let maximumLineBytes: Int
    private let endings: Endings
    private var pending: [UInt8] = []
    /// The previous read ended with a CR: an LF opening the next read belongs to it.
    private var afterCR = false

    package init(endings: Endings, maximumLineBytes: Int) {
        self.endings = endings
        self.maximumLineBytes = max(1, maximumLineBytes)
    }

    /// Takes the next bytes; calls `line` with every line they complete, its end removed.
    package mutating func consume(_ bytes: UnsafeRawBufferPointer, line: (ArraySlice<UInt8>) throws -> Void) throws {
        let input = bytes.bindMemory(to: UInt8.self)
        var start = 0
        var index = 0
        if afterCR, !input.isEmpty {
            afterCR = false
            if input[0] == 0x0A {
                start = 1
                index = 1
            }
        }
        while index < input.count {
            let byte = input[index]
            let isEnd = byte == 0x0A || (byte == 0x0D && endings == .crLFOrEither)
            guard isEnd else {
                index += 1
                continue
            }
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<index]))
            try checkLength()
            if endings == .lf, pending.last == 0x0D { pending.removeLast() }
            try line(pending[...])
            pending.removeAll(keepingCapacity: pending.count <= 4096)
            if byte == 0x0D {
                if index + 1 < input.count {
                    if input[index + 1] == 0x0A { index += 1 }
                } else {
                    afterCR = true
                }
            }
            index += 1
            start = index
        }
        if start < input.count {
            pending.append(contentsOf: UnsafeBufferPointer(rebasing: input[start..<input.count]))
            try checkLength()
        }
    }

    /// The stream ended: returns the unfinished last line, if any, and forgets it.
    package mutating func finish() -> [UInt8]? {
        afterCR = false
        guard !pending.isEmpty else { return nil }
        defer { pending = [] }
        return pending
    }

    private func checkLength() throws {
        guard pending.count > maximumLineBytes else { return }
        throw StreamingError(.lineTooLong, "A line of the stream exceeds \(maximumLineBytes) bytes without ending")
    }
}
