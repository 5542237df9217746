/// Where a transfer puts the final response's body. One per transfer, used on the engine thread
/// only: `Transfer` opens it when the final head arrives, writes each decoded chunk to it, and
/// closes it into the task's outcome. Adding a destination means adding a sink, not a branch in
/// the transfer.
protocol BodySink: AnyObject {
    /// libcurl's read size (`CURLOPT_BUFFERSIZE`) for this sink: the most read from the
    /// socket at once.
    var readBufferSize: Int { get }

    /// The most decoded body bytes this sink accepts (`.bodyTooLarge` beyond); `nil` for none.
    func limit(_ limits: SessionConfiguration.Limits) -> Int64?

    /// The final head arrived (`url` is the request's): prepare to receive its body.
    func open(head: ResponseHead, url: URL, limits: SessionConfiguration.Limits) throws

    /// Takes one chunk of the body. A throw fails the transfer with the error.
    func write(_ bytes: UnsafeRawBufferPointer) throws

    /// Whether the sink's consumer is too far behind and libcurl should stop reading; when it
    /// catches up it resumes the task's reading itself (docs/engine.md, "Backpressure").
    func pauseIfFull() -> Bool

    /// Whether the consumer of written bytes is woken by ``handOver()``, once per pass of the
    /// engine's loop, rather than by each write (docs/engine.md, "Handing bytes over").
    var handsOverOncePerPass: Bool { get }

    /// The engine's pass ended: wake the consumer for what it wrote.
    func handOver()

    /// The transfer ended with `outcome`: put the body into it (data or file) or, on failure,
    /// drop what was received.
    func close(_ outcome: inout TransferOutcome)

    /// A new part of a `multipart/x-mixed-replace` body begins: what it replaces is dropped.
    func replace()

    /// Ends the sink and hands the outcome on. Sinks that hold their body when the transfer
    /// ends close into the outcome (``close(_:)``) and deliver it at once; one that still has
    /// bytes to write (an output stream) delivers it from its own queue once they are written
    /// (docs/engine.md, "Output streams").
    func finish(_ outcome: consuming TransferOutcome, deliver: @escaping @Sendable (consuming TransferOutcome) -> Void)
}

extension BodySink {
    func finish(_ outcome: consuming TransferOutcome, deliver: @escaping @Sendable (consuming TransferOutcome) -> Void)
    {
        close(&outcome)
        deliver(outcome)
    }

    /// Sinks that never fall behind are never full.
    func pauseIfFull() -> Bool { false }

    /// Sinks without a consumer to wake (memory, file), or that wake it themselves.
    var handsOverOncePerPass: Bool { false }

    func handOver() {}

    /// Sinks that stream their body on keep every part.
    func replace() {}
}

/// Which sink a task's transfers use: memory (data tasks), a temporary file (download tasks),
/// an async consumer (byte streams) or a caller's `OutputStream`. Each transfer makes its own
/// with ``makeSink(idleTimeout:)``; `idleTimeout` is the transfer's request timeout.
enum BodySinkKind: Sendable {
    case memory
    case file(DownloadFile)
    case stream(ByteStreamState)
    case outputStream(OutputStreamWriter)

    func makeSink(idleTimeout: TimeInterval) -> any BodySink {
        switch self {
        case .memory: return MemorySink()
        case .file(let file): return FileSink(file: file)
        case .stream(let state): return ByteStreamSink(state: state)
        case .outputStream(let writer): return OutputStreamSink(writer: writer, idleTimeout: idleTimeout)
        }
    }
}

/// The body sink of data tasks: the body kept in memory, limited by
/// ``SessionConfiguration/Limits/maximumBodyBytes``.
final class MemorySink: BodySink {
    /// Written on the engine thread only, by `Data`'s own methods, so no two accesses overlap:
    /// unchecked, like the transfer's (docs/performance.md, "Exclusivity checks").
    @exclusivity(unchecked) private var body = Data()

    /// libcurl's default: thousands of small tasks must not each hold 512 KiB.
    var readBufferSize: Int { 16 * 1024 }

    func limit(_ limits: SessionConfiguration.Limits) -> Int64? { limits.maximumBodyBytes }

    func open(head: ResponseHead, url: URL, limits: SessionConfiguration.Limits) throws {
        let expected = head.expectedContentLength
        if expected > 0 { body.reserveCapacity(Int(min(expected, limits.maximumBodyBytes, 64 << 20))) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        body.append(bytes.assumingMemoryBound(to: UInt8.self))
    }

    func close(_ outcome: inout TransferOutcome) {
        outcome.data = outcome.head == nil ? nil : body
    }

    func replace() { body.removeAll(keepingCapacity: true) }
}

/// The body sink of `bytes(for:)`: chunks handed to an async consumer through
/// ``ByteStreamState``, which tells the engine to stop reading while the consumer is behind.
final class ByteStreamSink: BodySink {
    let state: ByteStreamState

    init(state: ByteStreamState) { self.state = state }

    /// What one read decodes to may wait in libcurl's pause buffer (64 MiB at most) while the
    /// consumer catches up: 32 KiB of gzip decodes to 33 MiB at most.
    var readBufferSize: Int { 32 * 1024 }

    func limit(_ limits: SessionConfiguration.Limits) -> Int64? { limits.maximumDownloadBytes }

    func open(head: ResponseHead, url: URL, limits: SessionConfiguration.Limits) throws {
        state.deliverHead(LazyResponse(head: head, url: url))
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        // Always taken, never answered with CURL_WRITEFUNC_PAUSE (docs/engine.md, "Backpressure").
        state.push(Data(bytes))
    }

    func pauseIfFull() -> Bool { state.pauseIfFull() }

    var handsOverOncePerPass: Bool { true }

    func handOver() { state.handOver() }

    func close(_ outcome: inout TransferOutcome) {
        if let head = outcome.head, outcome.error == nil, let url = outcome.request?.url {
            state.deliverHead(LazyResponse(head: head, url: url))
        }
        state.finish(outcome.error)
        // Breaks the task → sink → state → task cycle once nothing can resume reading.
        state.task.withLock { $0 = nil }
        outcome.data = nil
    }
}
