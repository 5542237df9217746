internal import Synchronization

/// The shared state between the engine, which pushes body chunks, and the async consumer of
/// a byte stream. Bounded: above the window's buffered bytes the engine stops reading (it
/// pauses receiving after taking the current read, docs/engine.md "Backpressure") until the
/// consumer drains to half of it.
///
/// The window adapts, as a TCP receive window autotunes: it starts at 1 MiB, and each time the
/// consumer runs dry after the engine had to stop for it (the pause cost more than the buffer
/// covered: the consumer is faster than waking the engine and reading again), it doubles, up to
/// 8 MiB. A consumer slower than the network never runs dry, so its window stays at 1 MiB.
final class ByteStreamState: Sendable {
    static let initialWindow = 1 << 20
    static let maximumWindow = 8 << 20

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var finished = false
        var failure: (any Error)?
        var waiter: CheckedContinuation<Data?, any Error>?
        var readingPaused = false
        /// Above this many buffered bytes the engine stops reading; it resumes at half.
        var window = ByteStreamState.initialWindow
        /// The engine stopped reading since the consumer last ran dry.
        var pausedSinceDry = false
        var response: LazyResponse?
        var responseWaiter: CheckedContinuation<LazyResponse, any Error>?
        var responseDelivered = false
    }

    // @unchecked: the waiters and the error are only touched under the Mutex.
    private struct Box: @unchecked Sendable { var state = State() }
    private let box = Mutex(Box())
    /// Set once the task exists, so the consumer can resume or cancel it.
    let task = Mutex<SessionTask?>(nil)

    // MARK: Engine side (engine thread)

    /// Marks reading paused and returns `true` when the buffer is full; one step under the
    /// lock, so a consumer draining at the same moment always sees the pause and resumes it.
    func pauseIfFull() -> Bool {
        box.withLock { box in
            guard box.state.buffered >= box.state.window else { return false }
            box.state.readingPaused = true
            box.state.pausedSinceDry = true
            return true
        }
    }

    /// The current window, in bytes.
    var window: Int { box.withLock { $0.state.window } }

    /// The bytes pushed and not yet read.
    var bufferedBytes: Int { box.withLock { $0.state.buffered } }

    /// Whether the consumer is parked on an empty buffer.
    var isConsumerWaiting: Bool { box.withLock { $0.state.waiter != nil } }

    func push(_ data: Data) {
        let waiter = box.withLock { box -> CheckedContinuation<Data?, any Error>? in
            if let waiter = box.state.waiter {
                box.state.waiter = nil
                return waiter
            }
            box.state.chunks.append(data)
            box.state.buffered += data.count
            return nil
        }
        waiter?.resume(returning: data)
    }

    func deliverHead(_ response: LazyResponse) {
        let waiter = box.withLock { box -> CheckedContinuation<LazyResponse, any Error>? in
            box.state.response = response
            defer { box.state.responseWaiter = nil }
            return box.state.responseWaiter
        }
        waiter?.resume(returning: response)
    }

    func finish(_ error: (any Error)?) {
        let (waiter, responseWaiter) = box.withLock { box in
            box.state.finished = true
            box.state.failure = error
            defer {
                box.state.waiter = nil
                box.state.responseWaiter = nil
            }
            return (box.state.chunks.count > box.state.head ? nil : box.state.waiter, box.state.responseWaiter)
        }
        if let responseWaiter {
            responseWaiter.resume(
                throwing: error ?? GannetError(.protocolViolation, "The transfer ended without a response")
            )
        }
        if let waiter {
            if let error { waiter.resume(throwing: error) } else { waiter.resume(returning: nil) }
        }
    }

    // MARK: Consumer side

    func response() async throws -> LazyResponse {
        try await withCheckedThrowingContinuation { continuation in
            let ready: Result<LazyResponse, any Error>? = box.withLock { box in
                if let response = box.state.response { return .success(response) }
                if box.state.finished {
                    return .failure(
                        box.state.failure ?? GannetError(.protocolViolation, "The transfer ended without a response")
                    )
                }
                box.state.responseWaiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                enum Ready {
                    case data(Data, resumeReading: Bool)
                    case end
                    case failure(any Error)
                    case wait(resumeReading: Bool)
                }
                let ready: Ready = box.withLock { box in
                    if box.state.head < box.state.chunks.count {
                        let data = box.state.chunks[box.state.head]
                        box.state.head += 1
                        box.state.buffered -= data.count
                        if box.state.head == box.state.chunks.count {
                            box.state.chunks.removeAll(keepingCapacity: true)
                            box.state.head = 0
                        }
                        let resume = box.state.readingPaused && box.state.buffered <= box.state.window / 2
                        if resume { box.state.readingPaused = false }
                        return .data(data, resumeReading: resume)
                    }
                    if box.state.finished {
                        if let failure = box.state.failure { return .failure(failure) }
                        return .end
                    }
                    box.state.waiter = continuation
                    if box.state.pausedSinceDry {
                        // Dry after a pause: the window did not cover the engine's restart.
                        box.state.pausedSinceDry = false
                        box.state.window = min(box.state.window * 2, Self.maximumWindow)
                    }
                    let resume = box.state.readingPaused
                    box.state.readingPaused = false
                    return .wait(resumeReading: resume)
                }
                switch ready {
                case .data(let data, let resumeReading):
                    if resumeReading { task.withLock { $0 }?.resumeReading() }
                    continuation.resume(returning: data)
                case .end: continuation.resume(returning: nil)
                case .failure(let error): continuation.resume(throwing: error)
                case .wait(let resumeReading):
                    if resumeReading { task.withLock { $0 }?.resumeReading() }
                }
            }
        } onCancel: {
            task.withLock { $0 }?.cancel()
        }
    }

}

/// The consumer's end of a byte stream. The engine never holds it, so when the consumer drops
/// the stream this goes away and cancels the transfer: a consumer that walked away must not
/// leave a paused transfer behind.
final class ByteStreamConsumer: Sendable {
    let state: ByteStreamState

    init(state: ByteStreamState) { self.state = state }

    func next() async throws -> Data? { try await state.next() }

    deinit { state.task.withLock { $0 }?.cancel() }
}
