internal import Synchronization

#if canImport(Glibc)
internal import Glibc
#endif

/// Where a request body comes from. Bodies are read as libcurl asks for bytes, straight into
/// its buffer, so a file or stream body is never held in memory whole.
enum BodySource: @unchecked Sendable {
    // @unchecked: the InputStream case is not Sendable; it is handed from the creating thread
    // to the engine thread once, when the task resumes, then to the one thread that reads it
    // (StreamBodyReader), and never touched elsewhere after.
    case data(Data)
    case file(URL)
    case stream(InputStream)

    /// The body a request carries: its stream, else its data, else none.
    init?(of request: URLRequest) {
        if let stream = request.httpBodyStream {
            self = .stream(stream)
        } else if let data = request.httpBody {
            self = .data(data)
        } else {
            return nil
        }
    }

    /// The body length when it is known up front; `nil` sends the body chunked.
    func knownLength(declared: Int64?) -> Int64? {
        switch self {
        case .data(let data): return Int64(data.count)
        case .file(let url):
            let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
            return (attributes?[.size] as? NSNumber)?.int64Value
        case .stream: return declared
        }
    }

    /// Whether the body can be sent again (for a 307/308 redirect or an auth retry).
    var isRepeatable: Bool {
        if case .stream = self { return false }
        return true
    }

    /// Makes a reader positioned at the start of the body. `wake` is called, from another
    /// thread, when a reader that answered ``BodyReader/pause`` has bytes again.
    func makeReader(wake: @escaping @Sendable () -> Void) throws -> any BodyReader {
        switch self {
        case .data(let data): return DataBodyReader(data: data)
        case .file(let url): return try FileBodyReader(url: url)
        case .stream(let stream): return StreamBodyReader(stream: stream, wake: wake)
        }
    }
}

/// Reads one body; used only on the engine thread.
protocol BodyReader: AnyObject {
    /// Fills `buffer`; returns the count read, 0 at the end, or ``BodyReader/pause`` when no
    /// byte is ready yet (the reader calls its `wake` once there is). Throws on a read failure.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
}

extension BodyReader {
    /// libcurl's `CURL_READFUNC_PAUSE`: nothing to send yet, ask again after an unpause.
    static var pause: Int { 0x1000_0001 }
}

final class DataBodyReader: BodyReader {
    private let data: Data
    private var offset = 0

    init(data: Data) { self.data = data }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, data.count - offset)
        guard count > 0 else { return 0 }
        data.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }
}

/// Reads a file with plain `read(2)` into curl's buffer: no copies, constant memory.
final class FileBodyReader: BodyReader {
    private let descriptor: Int32
    private let url: URL

    init(url: URL) throws {
        self.url = url
        descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 {
            let reason = String(cString: strerror(errno))
            throw GannetError(.bodyStreamFailed, "Cannot open the body file \(url.path): \(reason)", failingURL: nil)
        }
    }

    deinit { close(descriptor) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            throw GannetError(
                .bodyStreamFailed,
                "Reading the body file \(url.path) failed: \(String(cString: strerror(errno)))"
            )
        }
    }
}

/// Reads a caller's `InputStream` on a thread of its own into a bounded buffer, so a stream
/// whose `read` blocks (a pipe, a socket, a slow producer) stalls only its own transfer: the
/// engine thread takes what is buffered, answers ``BodyReader/pause`` when nothing is, and is
/// woken by a command once the stream thread has more (docs/engine.md).
final class StreamBodyReader: BodyReader {
    private let pump: StreamPump

    init(stream: InputStream, wake: @escaping @Sendable () -> Void) {
        pump = StreamPump(wake: wake)
        let pump = self.pump
        let box = StreamBox(stream)
        let thread = Thread { pump.run(box.stream) }
        thread.name = "gannet.body-stream"
        thread.start()
    }

    /// The transfer is done with the body (finished, cancelled, or moved to another hop):
    /// the stream thread stops after its current read and closes the stream.
    deinit { pump.cancel() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        try pump.take(into: buffer)
    }
}

/// Carries the stream to its thread. @unchecked: the stream moves once, from the engine
/// thread to the stream thread, before the thread starts; nothing else touches it after.
private struct StreamBox: @unchecked Sendable {
    let stream: InputStream
    init(_ stream: InputStream) { self.stream = stream }
}

/// The buffer between a stream thread and the engine thread.
final class StreamPump: Sendable {
    /// Bytes read ahead of libcurl; the stream thread waits while this much is unsent.
    static let capacity = 256 << 10

    private struct State {
        /// Chunks as read, the first one consumed up to `offset`. (One `Data` trimmed with
        /// `removeFirst` keeps its storage and grows with every append: 1 GiB for a 1 GiB body.)
        var chunks: [Data] = []
        var offset = 0
        var buffered = 0
        var ended = false
        var failure: GannetError?
        var cancelled = false
        /// The engine found nothing and paused sending: wake it on the next change.
        var engineWaiting = false
        /// The stream thread found the buffer full: signal `room` when bytes are taken.
        var pumpWaiting = false
    }

    private let state = Mutex(State())
    private let room = DispatchSemaphore(value: 0)
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) { self.wake = wake }

    // MARK: Engine thread

    func take(into destination: UnsafeMutableRawBufferPointer) throws -> Int {
        enum Next {
            case bytes(Int, signalRoom: Bool)
            case failure(GannetError)
            case pause
        }
        let next: Next = state.withLock { state in
            if state.buffered > 0 {
                var count = 0
                while count < destination.count, let first = state.chunks.first {
                    let take = min(destination.count - count, first.count - state.offset)
                    first.withUnsafeBytes { source in
                        (destination.baseAddress! + count).copyMemory(
                            from: source.baseAddress! + state.offset,
                            byteCount: take
                        )
                    }
                    count += take
                    state.offset += take
                    if state.offset == first.count {
                        state.chunks.removeFirst()
                        state.offset = 0
                    }
                }
                state.buffered -= count
                let signal = state.pumpWaiting
                state.pumpWaiting = false
                return .bytes(count, signalRoom: signal)
            }
            if let failure = state.failure { return .failure(failure) }
            if state.ended { return .bytes(0, signalRoom: false) }
            state.engineWaiting = true
            return .pause
        }
        switch next {
        case .bytes(let count, let signalRoom):
            if signalRoom { room.signal() }
            return count
        case .failure(let error): throw error
        case .pause: return StreamBodyReader.pause
        }
    }

    func cancel() {
        let signal = state.withLock { state -> Bool in
            state.cancelled = true
            defer { state.pumpWaiting = false }
            return state.pumpWaiting
        }
        if signal { room.signal() }
    }

    // MARK: Stream thread

    func run(_ stream: InputStream) {
        stream.open()
        defer { stream.close() }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let space = state.withLock { state -> Int? in
                if state.cancelled { return nil }
                let free = Self.capacity - state.buffered
                if free <= 0 { state.pumpWaiting = true }
                return max(free, 0)
            }
            guard let space else { return }
            if space == 0 {
                room.wait()
                continue
            }
            let count = chunk.withUnsafeMutableBufferPointer { pointer in
                stream.read(pointer.baseAddress!, maxLength: min(space, pointer.count))
            }
            let failure: GannetError? =
                count < 0
                ? GannetError(
                    .bodyStreamFailed,
                    "Reading the request body stream failed: \(stream.streamError.map { String(describing: $0) } ?? "unknown error")",
                    underlyingError: stream.streamError
                )
                : nil
            let (wakeEngine, done) = state.withLock { state -> (Bool, Bool) in
                if count > 0 {
                    state.chunks.append(Data(chunk[0..<count]))
                    state.buffered += count
                }
                if count == 0 { state.ended = true }
                if let failure { state.failure = failure }
                let waiting = state.engineWaiting
                state.engineWaiting = false
                return (waiting, count <= 0 || state.cancelled)
            }
            if wakeEngine { wake() }
            if done { return }
        }
    }
}
