public import Foundation

/// A newline-delimited JSON body (NDJSON, JSON Lines: `application/x-ndjson`,
/// `application/jsonl`) as an `AsyncSequence` of decoded values, one per line, as the chunks
/// arrive: the line-stream serializer on `bytes(for:)` (docs/streaming.md).
///
/// ```swift
/// let (response, body) = try await manager.bytes(for: request)
/// for try await item in body.jsonLines(of: Progress.self) {
///     print(item)
/// }
/// ```
///
/// Lines end with LF (a CR before it is dropped); blank lines are skipped; a last line without
/// its LF is decoded too. A line that does not decode throws `StreamingError(.invalidLine)`
/// with its number and the decoder's error; a line longer than `maximumLineBytes` throws
/// `StreamingError(.lineTooLong)` before more than that is held. Nothing else is buffered: the
/// next chunk is asked for only when the consumer asks for the next value, so the engine's
/// backpressure reaches the socket.
public struct JSONLinesSequence<Base: AsyncSequence, Element: Decodable>: AsyncSequence where Base.Element == Data {
    let base: Base
    let decoder: any DataDecoder
    let maximumLineBytes: Int

    /// Decodes each line of `base` with `decoder` (a `JSONDecoder` by default).
    public init(_ base: Base, decoder: any DataDecoder = JSONDecoder(), maximumLineBytes: Int = 1 << 20) {
        self.base = base
        self.decoder = decoder
        self.maximumLineBytes = maximumLineBytes
    }

    /// An iterator that reads `base` from its start.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: base.makeAsyncIterator(),
            decoder: decoder,
            splitter: LineSplitter(endings: .lf, maximumLineBytes: maximumLineBytes)
        )
    }

    /// Reads chunks of the base sequence only while no decoded line is waiting.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let decoder: any DataDecoder
        var splitter: LineSplitter
        var ready: [Data] = []
        var readyIndex = 0
        var lineNumber = 0
        var ended = false

        /// The next line's value; `nil` at the end of the body.
        public mutating func next() async throws -> Element? {
            while true {
                if readyIndex < ready.count {
                    let line = ready[readyIndex]
                    readyIndex += 1
                    lineNumber += 1
                    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
                    return try decode(line)
                }
                ready.removeAll(keepingCapacity: true)
                readyIndex = 0
                if ended { return nil }
                guard let chunk = try await base.next() else {
                    ended = true
                    if let last = splitter.finish() { ready.append(Data(last)) }
                    continue
                }
                var lines: [Data] = []
                try chunk.withUnsafeBytes { bytes in
                    try splitter.consume(bytes) { lines.append(Data($0)) }
                }
                ready = lines
            }
        }

        private func decode(_ line: Data) throws -> Element {
            do {
                return try decoder.decode(Element.self, from: line)
            } catch {
                throw StreamingError(
                    .invalidLine,
                    "Line \(lineNumber) of the JSON Lines stream does not decode as \(Element.self)",
                    lineNumber: lineNumber,
                    underlyingError: error
                )
            }
        }
    }
}

extension JSONLinesSequence: Sendable where Base: Sendable {}

extension AsyncSequence where Element == Data {
    /// This body's lines decoded as `type`, one value per non-blank line (NDJSON, JSON Lines;
    /// see ``JSONLinesSequence``).
    public func jsonLines<Value: Decodable>(
        of type: Value.Type,
        decoder: any DataDecoder = JSONDecoder(),
        maximumLineBytes: Int = 1 << 20
    ) -> JSONLinesSequence<Self, Value> {
        JSONLinesSequence(self, decoder: decoder, maximumLineBytes: maximumLineBytes)
    }
}
