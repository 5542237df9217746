/// Interprets a `text/event-stream` body as its reads arrive, however the reads cut it: the
/// WHATWG algorithm (HTML §9.2.6, "Interpreting an event stream"), as a value type with no I/O,
/// so every case (a field split across reads, a CR at the end of one read and the LF at the
/// start of the next, a leading BOM) is a step test (docs/streaming.md).
///
/// ```swift
/// var parser = EventStreamParser()
/// for output in try parser.consume(Data("data: hello\n\n".utf8)) {
///     if case .event(let event) = output { print(event.data) }
/// }
/// ```
///
/// Memory is bounded: a line that does not end within ``maximumEventBytes`` throws
/// `StreamingError(.lineTooLong)`, and an event whose `data` grows past it before its blank
/// line throws `StreamingError(.eventTooLarge)`; so at most twice the limit is held.
public struct EventStreamParser: Sendable {
    /// What a read completed.
    public enum Output: Sendable, Hashable {
        /// A blank line ended an event with data.
        case event(ServerSentEvent)
        /// A `retry:` field of ASCII digits: the reconnection delay, in milliseconds.
        case retry(milliseconds: Int)
    }

    /// The default limit of one line and of one event's data: 1 MiB.
    public static let defaultMaximumEventBytes = 1 << 20

    /// The most bytes of one line, and of one event's `data`.
    public let maximumEventBytes: Int
    /// The last event ID of the stream so far: set when an event is dispatched (even one with
    /// no data), from the latest `id:` field; what a reconnection sends as `Last-Event-ID`.
    public private(set) var lastEventID: String

    private var lines: LineSplitter
    /// The BOM is looked for in the first three bytes of the stream only.
    private var start: [UInt8] = []
    private var startDone = false
    /// The data lines so far, each followed by LF (so a `data:` line with an empty value still
    /// makes an event, whose data is `""`).
    private var data: [UInt8] = []
    private var eventType = ""
    private var idBuffer: String

    /// A parser for one connection's body. `lastEventID` is the event source's last event ID
    /// so far, which events without an `id:` field after a reconnection inherit, as browsers
    /// do (Chromium starts each connection's parser with it; the letter of WHATWG starts from
    /// `""`).
    public init(maximumEventBytes: Int = Self.defaultMaximumEventBytes, lastEventID: String = "") {
        lines = LineSplitter(endings: .crLFOrEither, maximumLineBytes: maximumEventBytes)
        self.maximumEventBytes = max(1, maximumEventBytes)
        self.lastEventID = lastEventID
        idBuffer = lastEventID
    }

    /// Takes the next bytes of the body; returns the events and retry delays they completed.
    public mutating func consume(_ bytes: Data) throws -> [Output] {
        try bytes.withUnsafeBytes { try consume($0) }
    }

    /// Takes the next bytes of the body; returns the events and retry delays they completed.
    public mutating func consume(_ bytes: UnsafeRawBufferPointer) throws -> [Output] {
        var outputs: [Output] = []
        guard startDone else {
            // Up to three bytes are held until they can be told from a UTF-8 BOM.
            start.append(contentsOf: bytes)
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            let held = min(start.count, 3)
            if Array(start[..<held]) == Array(bom[..<held]), start.count < 3 { return [] }
            startDone = true
            let body = Array(start.starts(with: bom) ? start.dropFirst(3) : start[...])
            start = []
            try body.withUnsafeBytes { try feed($0, into: &outputs) }
            return outputs
        }
        try feed(bytes, into: &outputs)
        return outputs
    }

    /// The body ended. An event without its closing blank line is discarded, as the WHATWG
    /// algorithm says; the parser is ready for nothing more.
    public mutating func finish() {
        _ = lines.finish()
        start = []
        data = []
        eventType = ""
    }

    private mutating func feed(_ bytes: UnsafeRawBufferPointer, into outputs: inout [Output]) throws {
        // The unfinished line and the event's data are bounded each by the limit, so however
        // the reads cut the stream, the same stream fails at the same line.
        // Lines are processed as they end, so a failure stops at the same line whatever the
        // cuts; the splitter is taken out of `self` meanwhile, as the closure mutates `self`.
        var splitter = lines
        lines = LineSplitter(endings: .crLFOrEither, maximumLineBytes: 1)
        defer { lines = splitter }
        try splitter.consume(bytes) { line in try process(line, into: &outputs) }
    }

    private mutating func process(_ line: ArraySlice<UInt8>, into outputs: inout [Output]) throws {
        guard let first = line.first else {
            dispatch(into: &outputs)
            return
        }
        if first == UInt8(ascii: ":") { return }  // a comment: a keep-alive, typically
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = line
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            data.append(contentsOf: value)
            data.append(0x0A)
            if data.count > maximumEventBytes {
                throw StreamingError(.eventTooLarge, "An event of the stream exceeds \(maximumEventBytes) bytes")
            }
        case "id":
            // An ID with NUL is ignored: it could not be sent back in a Last-Event-ID header.
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if let milliseconds = Self.digits(value) { outputs.append(.retry(milliseconds: milliseconds)) }
        default:
            break  // an unknown field is ignored
        }
    }

    private mutating func dispatch(into outputs: inout [Output]) {
        lastEventID = idBuffer
        defer {
            data.removeAll(keepingCapacity: data.count <= 4096)
            eventType = ""
        }
        guard !data.isEmpty else { return }
        data.removeLast()  // the LF after the last data line
        let event = ServerSentEvent(
            type: eventType.isEmpty ? "message" : eventType,
            data: String(decoding: data, as: UTF8.self),
            lastEventID: lastEventID
        )
        outputs.append(.event(event))
    }

    /// A value of ASCII digits only, saturating rather than overflowing; `nil` for anything else.
    private static func digits(_ value: ArraySlice<UInt8>) -> Int? {
        guard !value.isEmpty else { return nil }
        var result = 0
        for byte in value {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times, overflow1) = result.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            result = overflow1 || overflow2 ? Int.max : sum
        }
        return result
    }

    /// Whether `contentType` is `text/event-stream` (parameters and case aside).
    public static func isEventStream(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased() == "text/event-stream"
    }
}
