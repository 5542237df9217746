internal import Glibc

/// A `multipart/form-data` body (RFC 7578), AFNetworking's `AFMultipartFormData`: parts from
/// files, streams, data and form fields, read lazily when the body is sent.
///
/// ```swift
/// let request = try HTTPRequestSerializer().multipartFormRequest(
///     method: "POST", urlString: "http://127.0.0.1:8080/post", parameters: ["album": "Birds"]
/// ) { formData in
///     try formData.appendPart(fileURL: URL(fileURLWithPath: "/tmp/gannet.jpg"), name: "photo")
///     try formData.appendPart(formData: Data("A gannet diving".utf8), name: "caption")
/// }
/// ```
///
/// Nothing is read when a part is appended: files are checked (they must be readable regular
/// files) and their size recorded, so ``contentLength`` is known up front, and their bytes are
/// read in chunks only when a reader reaches them. A 1 GiB file uploads in constant memory.
///
/// The body layout is AFNetworking's: `--boundary CRLF`, the part's headers, a blank line,
/// the bytes; `CRLF --boundary CRLF` between parts; `CRLF --boundary-- CRLF` at the end.
public struct MultipartFormData {
    /// The boundary between parts, `Boundary+` and 16 hexadecimal digits by default.
    public let boundary: String
    /// The parts, in the order they were appended.
    var parts: [Part] = []
    /// The most bytes one read of the body returns; `Int.max` unless throttled.
    public private(set) var packetSize: Int = .max
    /// The pause after each read of the body, in seconds; `0` unless throttled.
    public private(set) var delay: TimeInterval = 0

    /// AFNetworking's `kAFUploadStream3GSuggestedPacketSize`: 16 KiB.
    public static let suggestedPacketSize3G = 16 * 1024
    /// AFNetworking's `kAFUploadStream3GSuggestedDelay`: 0.2 s.
    public static let suggestedDelay3G: TimeInterval = 0.2

    /// Creates an empty body with a random boundary.
    public init() {
        boundary = Self.randomBoundary()
    }

    /// Creates an empty body with `boundary`, which must be 1 to 70 characters of RFC 2046's
    /// `bchars` (letters, digits and `'()+_,-./:=?`; a space, but not at the end).
    ///
    /// - Throws: ``RequestSerializationError/Code/invalidMultipartName`` for any other boundary.
    public init(boundary: String) throws {
        let valid =
            (1...70).contains(boundary.utf8.count) && !boundary.hasSuffix(" ")
            && boundary.utf8.allSatisfy(Self.isBoundaryCharacter)
        guard valid else {
            throw RequestSerializationError(
                .invalidMultipartName,
                "The boundary \(RequestValidation.printable(boundary)) is not valid (RFC 2046 §5.1.1)"
            )
        }
        self.boundary = boundary
    }

    /// RFC 2046 `bchars`: `DIGIT / ALPHA / "'" / "(" / ")" / "+" / "_" / "," / "-" / "." / "/" / ":" / "=" / "?"` and space.
    private static func isBoundaryCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "'()+_,-./:=? ".utf8.contains(byte)
        }
    }

    /// `Boundary+` and 16 uppercase hexadecimal digits, as AFNetworking's `AFCreateMultipartFormBoundary`.
    public static func randomBoundary() -> String {
        // SystemRandomNumberGenerator is cryptographically secure: getrandom(2) on Linux,
        // arc4random_buf on Darwin. A guessable boundary would let a part's content forge parts.
        var generator = SystemRandomNumberGenerator()
        let bits = generator.next() as UInt64
        let hex = String(bits, radix: 16, uppercase: true)
        return "Boundary+" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Whether no part has been appended.
    public var isEmpty: Bool { parts.isEmpty }

    /// `multipart/form-data; boundary=…`
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The exact number of bytes the body has, known before any of it is read: the boundaries,
    /// every part's headers, and every part's length (a file's size when it was appended, a
    /// stream's declared length). `0` when the body is empty.
    public var contentLength: UInt64 {
        segments().reduce(0) { $0 + $1.length }
    }

    // MARK: Appending parts

    /// Appends the file at `fileURL` as a part named `name`, with its last path component as
    /// the file name and a MIME type from its extension (``MIMEType``).
    ///
    /// - Throws: ``RequestSerializationError/Code/fileNotReadable`` when `fileURL` is not a
    ///   file URL or names something that is not a readable regular file.
    public mutating func appendPart(fileURL: URL, name: String) throws {
        try appendPart(
            fileURL: fileURL,
            name: name,
            fileName: fileURL.lastPathComponent,
            mimeType: MIMEType.forPathExtension(fileURL.pathExtension)
        )
    }

    /// Appends the file at `fileURL` as a part named `name` with an explicit file name and type.
    ///
    /// The file's size is recorded now; if the file is shorter when it is read, reading the
    /// body fails with ``RequestSerializationError/Code/bodyStreamFailed`` (bytes beyond the
    /// recorded size are not sent), so the body always matches its `Content-Length`.
    ///
    /// - Throws: ``RequestSerializationError/Code/fileNotReadable`` when `fileURL` is not a
    ///   file URL or names something that is not a readable regular file; the errors of
    ///   ``appendPart(headers:body:)`` for the name, file name and type.
    public mutating func appendPart(fileURL: URL, name: String, fileName: String, mimeType: String) throws {
        let length = try Self.readableFileSize(fileURL)
        try appendPart(
            headers: fileHeaders(name: name, fileName: fileName, mimeType: mimeType),
            body: .file(fileURL, length: length)
        )
    }

    /// Appends `length` bytes of `inputStream` as a part. The stream is opened when the reader
    /// reaches the part and closed after `length` bytes; a stream that ends sooner fails the
    /// read with ``RequestSerializationError/Code/bodyStreamFailed``. A stream can be read once,
    /// so a body holding one can be read once.
    ///
    /// - Throws: ``RequestSerializationError/Code/bodyStreamFailed`` for a negative `length`;
    ///   the errors of ``appendPart(headers:body:)`` for the name, file name and type.
    public mutating func appendPart(
        inputStream: InputStream,
        name: String,
        fileName: String,
        length: Int64,
        mimeType: String
    ) throws {
        guard length >= 0 else {
            throw RequestSerializationError(.bodyStreamFailed, "A stream part's length cannot be negative (\(length))")
        }
        try appendPart(
            headers: fileHeaders(name: name, fileName: fileName, mimeType: mimeType),
            body: .stream(inputStream, length: UInt64(length))
        )
    }

    /// Appends `data` as a file part named `name`.
    public mutating func appendPart(data: Data, name: String, fileName: String, mimeType: String) throws {
        try appendPart(headers: fileHeaders(name: name, fileName: fileName, mimeType: mimeType), body: .data(data))
    }

    /// Appends a form field: `data` with only `Content-Disposition: form-data; name="…"`.
    public mutating func appendPart(formData data: Data, name: String) throws {
        try appendPart(
            headers: [("Content-Disposition", Self.contentDisposition(name: name, fileName: nil))],
            body: .data(data)
        )
    }

    /// Appends a part with the headers given and `body`. `Content-Disposition` and
    /// `Content-Type` are written first, the other headers sorted by name.
    ///
    /// - Throws: `GannetError(.invalidHeader)` when a header name is not a token or a value
    ///   holds CR, LF, NUL or another control character (names given to the other `appendPart`
    ///   methods are escaped first, so only NUL and other control characters remain to refuse);
    ///   ``RequestSerializationError/Code/invalidMultipartName`` when a header contains the
    ///   boundary.
    public mutating func appendPart(headers: [String: String], body: Data) throws {
        let first = ["content-disposition", "content-type"]
        let ordered = headers.sorted { lhs, rhs in
            let left = first.firstIndex(of: lhs.key.lowercased()) ?? first.count
            let right = first.firstIndex(of: rhs.key.lowercased()) ?? first.count
            return left != right ? left < right : lhs.key < rhs.key
        }
        try appendPart(headers: ordered.map { ($0.key, $0.value) }, body: .data(body))
    }

    /// Limits the body to `packetSize` bytes every `delay` seconds, as AFNetworking did for slow
    /// (3G) uplinks. Sent by Gannet's engine (through ``makeInputStream()``), the body is paced
    /// by libcurl's send-speed limit, so no thread sleeps; a ``MultipartBodyReader`` used
    /// directly returns at most `packetSize` bytes per read and sleeps `delay` after each, on
    /// the calling thread. `packetSize` below 1 counts as 1; a negative delay as 0.
    public mutating func throttleBandwidth(packetSize: Int, delay: TimeInterval) {
        self.packetSize = max(1, packetSize)
        self.delay = max(0, delay)
    }

    // MARK: Reading

    /// A new reader of the body, from its first byte. Each reader opens files anew; a part
    /// from an `InputStream` can only be read by one reader.
    public func makeBodyReader() -> MultipartBodyReader {
        MultipartBodyReader(segments: segments(), packetSize: packetSize, delay: delay)
    }

    /// A new `InputStream` over the body, for `URLRequest.httpBodyStream`.
    public func makeInputStream() -> MultipartBodyStream {
        let rate = delay > 0 ? Int64((Double(packetSize) / delay).rounded(.up)) : nil
        return MultipartBodyStream(
            reader: MultipartBodyReader(segments: segments(), packetSize: Int.max, delay: 0),
            maximumBytesPerSecond: rate
        )
    }

    /// The whole body in memory, for small bodies and tests.
    public func encoded() throws -> Data {
        let reader = makeBodyReader()
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try reader.read(into: $0) }
            if count == 0 { return data }
            data.append(contentsOf: buffer[..<count])
        }
    }

    // MARK: Internals

    private mutating func appendPart(headers: [(name: String, value: String)], body: Part.Body) throws {
        for header in headers {
            try RequestValidation.validateHeader(name: header.name, value: header.value, in: nil)
            if header.value.contains(boundary) || header.name.contains(boundary) {
                throw RequestSerializationError(
                    .invalidMultipartName,
                    "The part header \(RequestValidation.printable(header.name)) contains the boundary"
                )
            }
        }
        parts.append(Part(headers: headers, body: body))
    }

    private func fileHeaders(name: String, fileName: String, mimeType: String) -> [(name: String, value: String)] {
        [
            ("Content-Disposition", Self.contentDisposition(name: name, fileName: fileName)),
            ("Content-Type", mimeType),
        ]
    }

    /// The body as a list of byte ranges, each either in memory or in a file or stream.
    func segments() -> [MultipartBodyReader.Segment] {
        guard !parts.isEmpty else { return [] }
        var segments: [MultipartBodyReader.Segment] = []
        for (index, part) in parts.enumerated() {
            let opening = index == 0 ? "--\(boundary)\r\n" : "\r\n--\(boundary)\r\n"
            segments.append(.bytes(Data(opening.utf8) + part.headerBytes))
            switch part.body {
            case .data(let data): segments.append(.bytes(data))
            case .file(let url, let length): segments.append(.file(url, length: length))
            case .stream(let stream, let length): segments.append(.stream(stream, length: length))
            }
        }
        segments.append(.bytes(Data("\r\n--\(boundary)--\r\n".utf8)))
        return segments
    }

    /// The size of the regular file at `url`, after checking that it can be opened for reading.
    static func readableFileSize(_ url: URL) throws -> UInt64 {
        guard url.isFileURL else {
            throw RequestSerializationError(.fileNotReadable, "\(url.absoluteString) is not a file URL")
        }
        let path = url.path
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw RequestSerializationError(
                .fileNotReadable,
                "Cannot read \(path): \(String(cString: strerror(errno)))"
            )
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw RequestSerializationError(.fileNotReadable, "\(path) is not a regular file")
        }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw RequestSerializationError(
                .fileNotReadable,
                "Cannot open \(path): \(String(cString: strerror(errno)))"
            )
        }
        close(descriptor)
        return UInt64(info.st_size)
    }
}
