internal import Synchronization

/// The shared state between the engine, which pushes body chunks, and the async consumer of
/// a byte stream. Bounded: above the window's buffered bytes the engine stops reading (it
/// pauses receiving after taking the current read, docs/engine.md "Backpressure") until the
/// consumer drains to half of it.
///
/// Pushing never wakes the consumer: the engine hands the bytes over once per pass of its loop
/// (``handOver()``), so a consumer waiting on an empty buffer is woken once for all the reads
/// of that pass, not once a read (docs/engine.md, "Handing bytes over").
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

    /// The buffer's slots, read chunks not yet dropped included.
    var slots: Int { box.withLock { $0.state.chunks.count } }

    /// Whether the consumer is parked on an empty buffer.
    var isConsumerWaiting: Bool { box.withLock { $0.state.waiter != nil } }

    /// Buffers one read's bytes. A consumer waiting for them is not woken here but by the
    /// ``handOver()`` at the end of the engine's pass.
    func push(_ data: Data) {
        box.withLock { box in
            box.state.chunks.append(data)
            box.state.buffered += data.count
        }
    }

    /// The end of the engine's pass: a consumer waiting on the empty buffer gets the first
    /// chunk buffered since, and reads the rest without waiting. Does nothing when none waits.
    func handOver() {
        let handed = box.withLock { box -> (CheckedContinuation<Data?, any Error>, Data, resumeReading: Bool)? in
            guard let waiter = box.state.waiter, let taken = Self.take(&box.state) else { return nil }
            box.state.waiter = nil
            return (waiter, taken.data, taken.resumeReading)
        }
        guard let (waiter, data, resumeReading) = handed else { return }
        if resumeReading { task.withLock { $0 }?.resumeReading() }
        waiter.resume(returning: data)
    }

    /// Takes the oldest buffered chunk, and whether reading resumes: the engine paused for the
    /// consumer, which has now drained to half the window.
    ///
    /// The taken slot is emptied at once, and the taken prefix dropped once it is half the
    /// array: a consumer that never quite catches up (the engine pushes while it reads) must not
    /// keep every chunk it read alive.
    private static func take(_ state: inout State) -> (data: Data, resumeReading: Bool)? {
        guard state.head < state.chunks.count else { return nil }
        var data = Data()
        swap(&data, &state.chunks[state.head])
        state.head += 1
        state.buffered -= data.count
        if state.head == state.chunks.count {
            state.chunks.removeAll(keepingCapacity: true)
            state.head = 0
        } else if state.head >= 64, state.head * 2 >= state.chunks.count {
            state.chunks.removeFirst(state.head)
            state.head = 0
        }
        let resume = state.readingPaused && state.buffered <= state.window / 2
        if resume { state.readingPaused = false }
        return (data, resume)
    }

    func deliverHead(_ response: LazyResponse) {
        let waiter = box.withLock { box -> CheckedContinuation<LazyResponse, any Error>? in
            box.state.response = response
            defer { box.state.responseWaiter = nil }
            return box.state.responseWaiter
        }
        waiter?.resume(returning: response)
    }

    /// The transfer ended. A consumer still waiting gets what the last pass buffered (the rest
    /// it reads without waiting), or the end, or `error`.
    func finish(_ error: (any Error)?) {
        let (waiter, next, responseWaiter) = box.withLock { box in
            box.state.finished = true
            box.state.failure = error
            defer {
                box.state.waiter = nil
                box.state.responseWaiter = nil
            }
            let next: Result<Data?, any Error>
            if box.state.waiter == nil {
                next = .success(nil)  // nobody to give it to: the consumer reads it all itself
            } else if let taken = Self.take(&box.state) {
                next = .success(taken.data)
            } else if let error {
                next = .failure(error)
            } else {
                next = .success(nil)
            }
            return (box.state.waiter, next, box.state.responseWaiter)
        }
        if let responseWaiter {
            responseWaiter.resume(
                throwing: error ?? GannetError(.protocolViolation, "The transfer ended without a response")
            )
        }
        waiter?.resume(with: next)
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
                    if let taken = Self.take(&box.state) {
                        return .data(taken.data, resumeReading: taken.resumeReading)
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
