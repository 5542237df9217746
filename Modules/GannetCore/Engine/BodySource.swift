#if canImport(Glibc)
internal import Glibc
#endif

/// Where a request body comes from. Bodies are read as libcurl asks for bytes, straight into
/// its buffer, so a file or stream body is never held in memory whole.
enum BodySource: @unchecked Sendable {
    // @unchecked: the InputStream case is not Sendable; it is handed from the creating thread
    // to the engine thread once, when the task resumes, and never touched elsewhere after.
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

    /// Makes a reader positioned at the start of the body.
    func makeReader() throws -> any BodyReader {
        switch self {
        case .data(let data): return DataBodyReader(data: data)
        case .file(let url): return try FileBodyReader(url: url)
        case .stream(let stream): return StreamBodyReader(stream: stream)
        }
    }
}

/// Reads one body; used only on the engine thread.
protocol BodyReader: AnyObject {
    /// Fills `buffer`; returns the count read, 0 at the end. Throws on a read failure.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
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
            throw GannetError(.bodyStreamFailed, "Reading the body file \(url.path) failed: \(String(cString: strerror(errno)))")
        }
    }
}

final class StreamBodyReader: BodyReader {
    private let stream: InputStream
    private var opened = false

    init(stream: InputStream) { self.stream = stream }

    deinit { if opened { stream.close() } }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if !opened {
            stream.open()
            opened = true
        }
        let count = stream.read(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self), maxLength: buffer.count)
        if count < 0 {
            let reason = stream.streamError.map { String(describing: $0) } ?? "unknown error"
            throw GannetError(.bodyStreamFailed, "Reading the request body stream failed: \(reason)", underlyingError: stream.streamError)
        }
        return count
    }
}
