internal import Synchronization

/// The read side of NSURLSession's stream task, for a data task whose response disposition was
/// ``ResponseDisposition/becomeStream``: the rest of the response body, read with
/// ``readData(ofMinLength:maxLength:timeout:completionHandler:)`` (as
/// `URLSessionStreamTask.readData`) or iterated as ``chunks``. Reading is backpressured as
/// `bytes(for:)` is: while more than 1 MiB is unread, the engine stops reading from the socket.
///
/// Keep the stream task while you read: releasing it cancels the transfer, which must not stay
/// paused for a reader that is gone.
///
/// ```swift
/// manager.setDataTaskDidBecomeStreamTask { _, _, stream in
///     stream.readData(ofMinLength: 1, maxLength: 65_536, timeout: 30) { data, atEOF, error in
///         // handle the bytes, then read again until atEOF
///     }
/// }
/// ```
public final class SessionStreamTask: Sendable, CustomStringConvertible {
    /// The task in the manager's ``SessionManager/tasks`` that carries the transfer now (its
    /// own `taskIdentifier`, ``SessionTask/Kind/stream``): cancel, suspend or inspect it.
    public let task: SessionTask
    private let consumer: ByteStreamConsumer
    /// What a read took beyond its `maxLength`, handed out first.
    private let leftover = Mutex(Data())
    /// The latest read, which the next one waits for: reads complete in the order asked.
    private let lastRead = Mutex<Task<Void, Never>?>(nil)

    init(task: SessionTask, state: ByteStreamState) {
        self.task = task
        consumer = ByteStreamConsumer(state: state)
    }

    /// A description for logs.
    public var description: String { "<SessionStreamTask \(task.taskIdentifier)>" }

    /// The body's next bytes: a previous read's leftover, else the next chunk; `nil` at the end.
    private func nextChunk() async throws -> Data? {
        let kept = leftover.withLock { data -> Data? in
            guard !data.isEmpty else { return nil }
            defer { data = Data() }
            return data
        }
        if let kept { return kept }
        return try await consumer.next()
    }

    /// The rest of the body as chunks, in order (a read's leftover first). Iterate once, and do
    /// not mix with pending ``readData(ofMinLength:maxLength:timeout:completionHandler:)`` calls.
    public var chunks: AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { try await self.nextChunk() }
    }

    /// Reads at least `minBytes` (at least one byte when `0`) and at most `maxBytes` of the body,
    /// then calls `completionHandler` with the bytes (`nil` when none), whether the body ended,
    /// and the transfer's error if it failed. Reads are served in the order they are asked.
    /// A read that is not complete after `timeout` seconds (`0`: no limit) fails with
    /// `URLError.timedOut` and cancels the task, as bytes already taken from the transfer cannot
    /// be put back. `minBytes > maxBytes` or `maxBytes < 1` fails with
    /// `GannetError(.invalidRequest)`.
    public func readData(
        ofMinLength minBytes: Int,
        maxLength maxBytes: Int,
        timeout: TimeInterval,
        completionHandler: @escaping @Sendable (Data?, Bool, (any Error)?) -> Void
    ) {
        guard minBytes >= 0, maxBytes >= 1, minBytes <= maxBytes else {
            let error = GannetError(.invalidRequest, "readData needs 0 <= minLength <= maxLength and maxLength >= 1")
            completionHandler(nil, false, error)
            return
        }
        let answered = Decided()
        let task = self.task
        if timeout > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                guard answered.claim() else { return }
                task.cancel()
                let url = task.originalRequest?.url
                let error = GannetError(.timedOut, "No \(minBytes) bytes arrived within \(timeout) s", failingURL: url)
                completionHandler(nil, false, TransportError.urlError(gannet: error, url: url))
            }
        }
        lastRead.withLock { previous in
            let prior = previous
            previous = Task {
                await prior?.value
                var collected = Data()
                var atEOF = false
                var failure: (any Error)?
                do {
                    while collected.count < max(minBytes, 1) {
                        guard let chunk = try await self.nextChunk() else {
                            atEOF = true
                            break
                        }
                        collected.append(chunk)
                    }
                } catch {
                    failure = error
                }
                if collected.count > maxBytes {
                    let rest = Data(collected[collected.startIndex + maxBytes..<collected.endIndex])
                    self.leftover.withLock { $0 = rest + $0 }
                    collected = Data(collected.prefix(maxBytes))
                }
                guard answered.claim() else { return }
                completionHandler(collected.isEmpty ? nil : collected, atEOF, failure)
            }
        }
    }
}
