/// A response whose head has arrived and whose body is still arriving: what
/// ``SessionManager/streamedResponse(for:)`` returns. The head is read as the server sent it,
/// as a finished task's ``DataResponse`` reads it: the reason phrase, and the fields in wire
/// order with a repeated name (`Set-Cookie`) once per line, which `HTTPURLResponse` merges.
///
/// ```swift
/// let streamed = try await manager.streamedResponse(for: request)
/// print(streamed.statusCode, streamed.headerFields.filter { $0.name.lowercased() == "set-cookie" })
/// for try await chunk in streamed.body { handle(chunk) }
/// ```
public struct StreamedResponse: Sendable {
    private let head: LazyResponse

    /// The body as it arrives, backpressured as ``SessionManager/bytes(for:)``'s: the engine
    /// stops reading from the socket while the consumer is more than 1 MiB behind. Dropping it
    /// cancels the transfer.
    public let body: AsyncThrowingStream<Data, any Error>

    init(head: LazyResponse, body: AsyncThrowingStream<Data, any Error>) {
        self.head = head
        self.body = body
    }

    /// The status code.
    public var statusCode: Int { head.statusCode }

    /// The reason phrase as the server sent it (`OK`, `Teapot`), empty when it sent none (HTTP/2
    /// has none); `nil` when the parsed head was not kept.
    public var reasonPhrase: String? { head.rawHead?.reasonPhrase }

    /// The header fields as they arrived: in order, names as the server wrote them, a repeated
    /// field once per line.
    public var headerFields: [(name: String, value: String)] { head.headerFields }

    /// A header field's value by case-insensitive name; repeated fields joined with ", ".
    public func headerValue(_ name: String) -> String? { head.headerValue(name) }

    /// The status line's version (`HTTP/1.1`, `HTTP/2`), `nil` when unknown.
    public var httpVersion: String? { head.httpVersion }

    /// The head as an `HTTPURLResponse` (repeated fields merged, no reason phrase), built on
    /// first access; `nil` only if Foundation refuses to build it.
    public var response: HTTPURLResponse? { head.value }
}

extension SessionManager {
    /// Sends `request` and returns as soon as the response head arrived, with the head as
    /// received and the body still streaming: ``bytes(for:)``, for a caller that needs the
    /// reason phrase or a repeated field (`Set-Cookie`) apart, or does not need an
    /// `HTTPURLResponse` (which it then does not pay to build).
    ///
    /// - Throws: what ``bytes(for:)`` throws before the head arrives.
    public func streamedResponse(for request: URLRequest) async throws -> StreamedResponse {
        let (task, state) = makeByteStreamTask(for: request)
        task.resume()
        let head = try await withTaskCancellationHandler {
            try await state.response()
        } onCancel: {
            task.cancel()
        }
        // Pull-based: the stream asks for the next chunk only when the consumer does, which is
        // what lets the engine apply backpressure.
        let consumer = ByteStreamConsumer(state: state)
        return StreamedResponse(head: head, body: AsyncThrowingStream { try await consumer.next() })
    }
}
