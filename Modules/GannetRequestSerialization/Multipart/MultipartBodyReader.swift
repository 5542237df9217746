internal import Glibc

/// Reads a ``MultipartFormData`` body front to back, pulling bytes as the consumer asks for
/// them: AFNetworking's `AFMultipartBodyStream` without the run-loop machinery.
///
/// ```swift
/// let reader = formData.makeBodyReader()
/// var buffer = [UInt8](repeating: 0, count: 64 * 1024)
/// while case let count = try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }), count > 0 {
///     try output.write(contentsOf: buffer[..<count])
/// }
/// ```
///
/// A file part is opened (`O_RDONLY | O_CLOEXEC`) when the reader reaches it, read straight
/// into the caller's buffer, and closed when its last byte is read; an `InputStream` part is
/// opened and closed the same way. Memory use does not depend on the size of the parts.
///
/// Not thread-safe: one reader belongs to one consumer at a time, like any `InputStream`.
/// Abandoning a reader midway (or calling ``close()``) closes what it has open.
public final class MultipartBodyReader {
    /// A run of body bytes: in memory, or the first `length` bytes of a file or stream.
    enum Segment {
        case bytes(Data)
        case file(URL, length: UInt64)
        case stream(InputStream, length: UInt64)

        var length: UInt64 {
            switch self {
            case .bytes(let data): UInt64(data.count)
            case .file(_, let length), .stream(_, let length): length
            }
        }
    }

    /// The total number of bytes the body has.
    public let contentLength: UInt64
    /// How many bytes have been read so far.
    public private(set) var bytesRead: UInt64 = 0
    /// Whether every byte has been read.
    public var isAtEnd: Bool { index >= segments.count }

    private let segments: [Segment]
    private let packetSize: Int
    private let delay: TimeInterval
    /// The segment being read and how far into it.
    private var index = 0
    private var offset: UInt64 = 0
    private var descriptor: Int32 = -1
    private var openedStream: InputStream?
    private var failure: RequestSerializationError?

    init(segments: [Segment], packetSize: Int, delay: TimeInterval) {
        self.segments = segments
        self.packetSize = packetSize
        self.delay = delay
        contentLength = segments.reduce(0) { $0 + $1.length }
        skipEmptySegments()
    }

    deinit {
        close()
    }

    /// Copies the next bytes of the body into `buffer` and returns how many; `0` once the body
    /// is complete (or when `buffer` is empty). Fills the buffer across part boundaries, up to
    /// the throttle's packet size, then sleeps the throttle's delay.
    ///
    /// - Throws: ``RequestSerializationError/Code/bodyStreamFailed`` when a file cannot be
    ///   opened or read, is shorter than when it was appended, or a stream fails or ends before
    ///   its declared length. The reader then stays failed and closed.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let failure { throw failure }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        let limit = min(buffer.count, packetSize)
        var filled = 0
        do {
            while filled < limit && !isAtEnd {
                let count = try readSegment(
                    into: UnsafeMutableRawBufferPointer(start: base + filled, count: limit - filled)
                )
                filled += count
                offset += UInt64(count)
                if offset == segments[index].length {
                    finishSegment()
                }
            }
        } catch let error as RequestSerializationError {
            failure = error
            close()
            throw error
        }
        bytesRead += UInt64(filled)
        if delay > 0 && filled > 0 {
            Thread.sleep(forTimeInterval: delay)
        }
        return filled
    }

    /// Closes any open file or stream. Reads after closing an unfinished body throw
    /// ``RequestSerializationError/Code/bodyStreamFailed``: the body can no longer be completed.
    public func close() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
        openedStream?.close()
        openedStream = nil
        if !isAtEnd && failure == nil {
            failure = RequestSerializationError(
                .bodyStreamFailed,
                "The multipart body reader was closed before the end of the body"
            )
        }
    }

    // MARK: Segments

    private func readSegment(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let remaining = segments[index].length - offset
        let wanted = Int(min(UInt64(buffer.count), remaining))
        switch segments[index] {
        case .bytes(let data):
            let start = data.startIndex + Int(offset)
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: start..<(start + wanted))
            return wanted
        case .file(let url, _):
            return try readFile(url, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
        case .stream(let stream, _):
            return try readStream(stream, into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
        }
    }

    private func readFile(_ url: URL, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if descriptor < 0 {
            descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw RequestSerializationError(
                    .bodyStreamFailed,
                    "Cannot open \(url.path): \(String(cString: strerror(errno)))"
                )
            }
        }
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count > 0 { return count }
            if count == 0 {
                throw RequestSerializationError(
                    .bodyStreamFailed,
                    "\(url.path) is shorter than when it was appended to the multipart body"
                )
            }
            if errno != EINTR {
                throw RequestSerializationError(
                    .bodyStreamFailed,
                    "Cannot read \(url.path): \(String(cString: strerror(errno)))"
                )
            }
        }
    }

    private func readStream(_ stream: InputStream, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if openedStream == nil {
            stream.open()
            openedStream = stream
        }
        let count = stream.read(buffer.bindMemory(to: UInt8.self).baseAddress!, maxLength: buffer.count)
        if count > 0 { return count }
        if count < 0 {
            throw RequestSerializationError(
                .bodyStreamFailed,
                "A stream part failed",
                underlyingError: stream.streamError
            )
        }
        throw RequestSerializationError(.bodyStreamFailed, "A stream part ended before its declared length")
    }

    /// Closes the finished segment's file or stream and moves to the next non-empty segment.
    private func finishSegment() {
        if descriptor >= 0 {
            Glibc.close(descriptor)
            descriptor = -1
        }
        openedStream?.close()
        openedStream = nil
        index += 1
        offset = 0
        skipEmptySegments()
    }

    /// Empty segments (an empty file, a zero-length stream) are never opened.
    private func skipEmptySegments() {
        while index < segments.count && segments[index].length == 0 {
            index += 1
        }
    }
}
