internal import Synchronization

/// The body sink of a data task made with an `OutputStream` (AFURLConnectionOperation's
/// `outputStream`): each chunk goes to an ``OutputStreamWriter``, which writes it on a queue of
/// its own, so a stream that blocks never blocks the engine thread (docs/engine.md, "Output
/// streams"). One per transfer; the writer is the task's and outlives it.
final class OutputStreamSink: BodySink {
    let writer: OutputStreamWriter
    private let idleTimeout: TimeInterval

    init(writer: OutputStreamWriter, idleTimeout: TimeInterval) {
        self.writer = writer
        self.idleTimeout = idleTimeout
    }

    /// What one read decodes to may wait in libcurl's pause buffer while the writer catches up,
    /// as for byte streams.
    var readBufferSize: Int { 32 * 1024 }

    func limit(_ limits: SessionConfiguration.Limits) -> Int64? { limits.maximumDownloadBytes }

    func open(head: ResponseHead, url: URL, limits: SessionConfiguration.Limits) throws {
        try writer.begin(idleTimeout: idleTimeout, url: url)
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        try writer.enqueue(Data(bytes))
    }

    func pauseIfFull() -> Bool { writer.pauseIfFull() }

    /// The body is in the stream, never in memory.
    func close(_ outcome: inout TransferOutcome) { outcome.data = nil }

    func finish(_ outcome: consuming TransferOutcome, deliver: @escaping @Sendable (consuming TransferOutcome) -> Void)
    {
        close(&outcome)
        writer.finish(outcome, deliver: deliver)
    }
}

/// Writes a response body to a caller's `OutputStream` on a serial queue of its own, and tells
/// the engine when to stop and start reading (the high and low water marks of
/// ``ByteStreamState``). The engine thread only hands chunks over; the stream is opened,
/// written and closed on the queue.
///
/// A successful task completes only once its last byte is written and the stream closed. A
/// write that returns -1 fails the task with the stream's `streamError` underneath
/// ``GannetError/Code/outputStreamFailed``; so does a stream that takes no byte for the
/// request's timeout, whether it answers 0 (full) or blocks inside `write` (a watchdog off the
/// queue notices, since the queue itself is what is stuck).
final class OutputStreamWriter: Sendable {
    static let highWater = 1 << 20
    static let lowWater = 256 << 10

    private struct State {
        /// Bytes handed over and not yet written.
        var pending = 0
        /// Every byte handed over, all transfers of the task together.
        var accepted: Int64 = 0
        var readingPaused = false
        var failure: GannetError?
        /// The transfer ended: chunks still queued are dropped unless it ended well.
        var ended = false
        /// A successful transfer's outcome, waiting for the last bytes to be written.
        var finishing: (outcome: TransferOutcome, deliver: @Sendable (consuming TransferOutcome) -> Void)?
        var delivered = false
        var lastProgress = MonotonicClock.nanoseconds()
        var idleTimeout: TimeInterval = 60
        var url: URL?
        var watchdog: (any DispatchSourceTimer)?

        /// Whether bytes still to be written go nowhere: the writing failed, or the transfer
        /// ended without success (a timeout, a cancel), so nothing will deliver them.
        var dropsWrites: Bool { failure != nil || (ended && finishing == nil) }
    }

    // @unchecked: the state (an error, a closure, a timer) is only touched under the Mutex.
    private struct Box: @unchecked Sendable { var state = State() }
    // @unchecked: `OutputStream` is not Sendable; it is used only inside blocks run on `queue`,
    // which is serial, so no two threads ever touch it at once.
    private struct Stream: @unchecked Sendable { let stream: OutputStream }

    private let stream: Stream
    private let queue = DispatchQueue(label: "gannet.output-stream")
    private let box = Mutex(Box())
    /// The task being written for, set once it exists: reading is resumed and a failure is
    /// reported through it (``SessionTask/resumeReading()``, ``SessionTask/failTransfer(_:)``).
    /// Weak: the task holds this writer (through its sink kind) for all its attempts, and the
    /// manager holds a running task.
    let task = Mutex(WeakTask())

    struct WeakTask {
        weak var value: SessionTask?
    }

    init(stream: OutputStream) {
        self.stream = Stream(stream: stream)
    }

    // MARK: Engine side (engine thread)

    /// The final head arrived. A second transfer of the same task (an interceptor's retry)
    /// cannot write into a stream that already holds part of a body: it fails instead.
    func begin(idleTimeout: TimeInterval, url: URL) throws {
        let accepted = box.withLock { box -> Int64 in
            box.state.idleTimeout = idleTimeout
            box.state.url = url
            return box.state.accepted
        }
        if accepted > 0 {
            throw GannetError(
                .outputStreamFailed,
                "The output stream already holds \(accepted) bytes of an earlier response; a retried response cannot be written to it",
                failingURL: url
            )
        }
        queue.async { [self] in
            let stream = self.stream.stream
            guard stream.streamStatus == .notOpen else { return }
            stream.open()
            if stream.streamStatus == .error {
                fail(stream.streamError, "The output stream could not be opened")
            }
        }
    }

    /// Takes one chunk; throws the failure that ended the writing, if any.
    func enqueue(_ data: Data) throws {
        try box.withLock { box throws(GannetError) in
            if let failure = box.state.failure { throw failure }
            if box.state.pending == 0 { box.state.lastProgress = MonotonicClock.nanoseconds() }
            box.state.pending += data.count
            box.state.accepted += Int64(data.count)
            if box.state.watchdog == nil {
                box.state.watchdog = startWatchdog(every: min(max(box.state.idleTimeout / 4, 0.01), 1))
            }
        }
        queue.async { [self] in write(data) }
    }

    /// Marks reading paused and returns `true` when too much waits to be written; one step
    /// under the lock, so a writer draining at the same moment always sees the pause.
    func pauseIfFull() -> Bool {
        box.withLock { box in
            guard box.state.pending >= Self.highWater else { return false }
            box.state.readingPaused = true
            return true
        }
    }

    /// The transfer ended. A failed or cancelled one is delivered at once (the writer may be
    /// stuck in a `write` nothing can interrupt); a successful one once every byte is written
    /// and the stream closed, or with the writer's failure.
    func finish(_ outcome: TransferOutcome, deliver: @escaping @Sendable (consuming TransferOutcome) -> Void) {
        guard outcome.error == nil else {
            let first = box.withLock { box in
                box.state.ended = true
                defer { box.state.delivered = true }
                return !box.state.delivered
            }
            if first { deliver(outcome) }
            queue.async { [self] in closeStream() }
            return
        }
        box.withLock {
            $0.state.ended = true
            $0.state.finishing = (outcome, deliver)
        }
        queue.async { [self] in
            closeStream()
            deliverFinishing()
        }
    }

    // MARK: Writer side (the queue)

    private func write(_ data: Data) {
        // After a failure, or once a failed transfer ended, queued chunks are dropped.
        let drop = box.withLock { $0.state.dropsWrites }
        if !drop { writeAll(data) }
        let resume = box.withLock { box -> Bool in
            box.state.pending -= data.count
            guard box.state.readingPaused, box.state.pending <= Self.lowWater else { return false }
            box.state.readingPaused = false
            return true
        }
        if resume { task.withLock { $0.value }?.resumeReading() }
    }

    /// Writes every byte of `data`, waiting while the stream is full.
    private func writeAll(_ data: Data) {
        let stream = self.stream.stream
        var offset = 0
        while offset < data.count {
            let count = data.withUnsafeBytes { buffer in
                stream.write(
                    buffer.baseAddress!.advanced(by: offset).assumingMemoryBound(to: UInt8.self),
                    maxLength: data.count - offset
                )
            }
            if count < 0 {
                fail(stream.streamError, "Writing to the output stream failed")
                return
            }
            if count == 0 {
                let status = stream.streamStatus
                if status == .atEnd || status == .closed || status == .error {
                    fail(stream.streamError, "The output stream takes no more bytes")
                    return
                }
                // Full: the watchdog fails the task if it stays full; until then, retry soon.
                // Stop once the bytes go nowhere; the stream is closed after this returns.
                if box.withLock({ $0.state.dropsWrites }) { return }
                usleep(2000)
                continue
            }
            offset += count
            box.withLock { $0.state.lastProgress = MonotonicClock.nanoseconds() }
        }
    }

    private func closeStream() {
        let watchdog = box.withLock { box -> (any DispatchSourceTimer)? in
            defer { box.state.watchdog = nil }
            return box.state.watchdog
        }
        watchdog?.cancel()
        let stream = self.stream.stream
        if stream.streamStatus != .notOpen && stream.streamStatus != .closed {
            stream.close()
        }
    }

    /// Hands a successful transfer's outcome on, with the writer's failure if there was one;
    /// once, from the queue after the last write or from the watchdog.
    private func deliverFinishing() {
        let taken = box.withLock { box -> (TransferOutcome, @Sendable (TransferOutcome) -> Void, GannetError?)? in
            guard !box.state.delivered, let finishing = box.state.finishing else { return nil }
            box.state.delivered = true
            return (finishing.outcome, finishing.deliver, box.state.failure)
        }
        guard let (outcome, deliver, failure) = taken else { return }
        var result = outcome
        if let failure {
            result.error = TransportError.urlError(gannet: failure, url: failure.failingURL ?? outcome.request?.url)
        } else if let written = stream.stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data {
            // A memory stream's bytes are the response's data, as AFURLConnectionOperation's
            // `responseData` reads NSStreamDataWrittenToMemoryStreamKey; a file stream has none.
            result.data = written
        }
        deliver(result)
    }

    // MARK: Failing

    /// Records the first failure and ends the transfer with it, through the task on the engine
    /// thread (a transfer that already ended successfully is delivered with it instead).
    private func fail(_ streamError: (any Error)?, _ message: String) {
        let failure = box.withLock { box -> GannetError? in
            guard box.state.failure == nil else { return nil }
            let reason = streamError.map { "\(message): \($0)" } ?? message
            let failure = GannetError(
                .outputStreamFailed,
                reason,
                failingURL: box.state.url,
                underlyingError: streamError
            )
            box.state.failure = failure
            return failure
        }
        guard let failure else { return }
        task.withLock { $0.value }?.failTransfer(failure)
    }

    /// Every `interval`, fails the task when bytes have waited longer than the request's
    /// timeout without the stream taking one. Runs off the writer's queue, which may be stuck.
    private func startWatchdog(every interval: TimeInterval) -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + interval, repeating: interval)
        timer.setEventHandler { [weak self] in self?.checkProgress() }
        timer.resume()
        return timer
    }

    private func checkProgress() {
        let stalled = box.withLock { box -> TimeInterval? in
            let idle = Double(MonotonicClock.nanoseconds() &- box.state.lastProgress) / 1e9
            let waiting = box.state.pending > 0 && box.state.failure == nil && !box.state.delivered
            return waiting && idle > box.state.idleTimeout ? box.state.idleTimeout : nil
        }
        guard let seconds = stalled else { return }
        fail(nil, "The output stream took no byte for \(seconds) s")
        // A transfer that already ended waits for the queue, which may be stuck in `write`.
        deliverFinishing()
    }
}
