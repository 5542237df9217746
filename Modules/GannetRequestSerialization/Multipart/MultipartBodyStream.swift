/// A ``MultipartFormData`` body as a Foundation `InputStream`, for `URLRequest.httpBodyStream`:
/// AFNetworking's `AFMultipartBodyStream`. It reads through a ``MultipartBodyReader``, so
/// parts are read lazily, in chunks, as the consumer (Gannet's engine feeding curl's read
/// callback) asks for bytes.
///
/// Subclassing `InputStream` works on swift-corelibs-foundation: consumers call the overridden
/// ``read(_:maxLength:)``, ``hasBytesAvailable``, ``open()``, ``close()``, ``streamStatus``
/// and ``streamError`` (Gannet's tests read multi-part bodies through it). Run-loop
/// scheduling is a no-op: reads never block on anything but the files and streams of the parts.
///
/// Like every `InputStream`, it is read by one thread at a time, and once: a request that may
/// be sent again (a retry, a 307 redirect) needs a new stream from
/// ``MultipartFormData/makeInputStream()``.
public final class MultipartBodyStream: InputStream, RateLimitedBodyStream {
    private let reader: MultipartBodyReader
    /// The throttle's rate (`packetSize / delay`), enforced by the engine; `nil` when unthrottled.
    public let maximumBytesPerSecond: Int64?
    private var status: Stream.Status = .notOpen
    private var error: (any Error)?

    /// The total number of bytes the stream yields.
    public var contentLength: UInt64 { reader.contentLength }

    init(reader: MultipartBodyReader, maximumBytesPerSecond: Int64? = nil) {
        self.reader = reader
        self.maximumBytesPerSecond = maximumBytesPerSecond
        super.init(data: Data())
    }

    /// Opens the stream; reading before opening fails, as with Foundation's streams.
    public override func open() {
        if status == .notOpen { status = reader.isAtEnd ? .atEnd : .open }
    }

    /// Closes the stream and any file or stream part it has open.
    public override func close() {
        reader.close()
        status = .closed
    }

    /// `.notOpen`, `.open`, `.atEnd` once every byte was read, `.error` after a failed read,
    /// `.closed`.
    public override var streamStatus: Stream.Status { status }

    /// The ``RequestSerializationError`` of the failed read, if any.
    public override var streamError: (any Error)? { error }

    /// `true` while the stream is open and not at its end.
    public override var hasBytesAvailable: Bool { status == .open }

    /// Reads up to `len` bytes into `buffer`: the count, `0` at the end, `-1` on failure (then
    /// ``streamError`` says why).
    public override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength len: Int) -> Int {
        switch status {
        case .notOpen:
            fail(
                RequestSerializationError(.bodyStreamFailed, "The multipart body stream was read before it was opened")
            )
            return -1
        case .atEnd, .closed:
            return 0
        case .error:
            return -1
        default:
            break
        }
        do {
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max(0, len)))
            if reader.isAtEnd { status = .atEnd }
            return count
        } catch {
            fail(error)
            return -1
        }
    }

    /// `false`: the bytes are not in one contiguous buffer.
    public override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }

    /// No properties are supported.
    public override func property(forKey key: Stream.PropertyKey) -> AnyObject? { nil }

    /// No properties are supported.
    public override func setProperty(_ property: AnyObject?, forKey key: Stream.PropertyKey) -> Bool { false }

    /// Does nothing: reads are synchronous.
    public override func schedule(in aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    /// Does nothing: reads are synchronous.
    public override func remove(from aRunLoop: RunLoop, forMode mode: RunLoop.Mode) {}

    private func fail(_ failure: any Error) {
        error = failure
        status = .error
    }
}
