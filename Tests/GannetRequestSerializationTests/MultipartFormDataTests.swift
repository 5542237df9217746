import Testing

@testable import GannetRequestSerialization

@Suite("MultipartFormData")
struct MultipartFormDataTests {
    static let boundary = "Boundary+0123456789ABCDEF"

    private func fixedForm() throws -> MultipartFormData {
        try MultipartFormData(boundary: Self.boundary)
    }

    // MARK: Layout

    @Test("The exact bytes of a small body")
    func exactBytes() throws {
        // Given
        var form = try fixedForm()
        try form.appendPart(formData: Data("1".utf8), name: "a")
        try form.appendPart(data: Data("hi".utf8), name: "f", fileName: "x.txt", mimeType: "text/plain")
        // When
        let body = try form.encoded()
        // Then
        let expected =
            "--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"a\"\r\n"
            + "\r\n"
            + "1"
            + "\r\n--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"f\"; filename=\"x.txt\"\r\n"
            + "Content-Type: text/plain\r\n"
            + "\r\n"
            + "hi"
            + "\r\n--Boundary+0123456789ABCDEF--\r\n"
        #expect(body == Data(expected.utf8))
        #expect(form.contentLength == UInt64(expected.utf8.count))
        #expect(form.contentType == "multipart/form-data; boundary=Boundary+0123456789ABCDEF")
    }

    @Test("Custom part headers: Content-Disposition and Content-Type first, then sorted")
    func customHeaders() throws {
        var form = try fixedForm()
        try form.appendPart(
            headers: [
                "X-B": "2", "Content-Type": "text/csv", "X-A": "1", "Content-Disposition": "form-data; name=\"t\"",
            ],
            body: Data("x".utf8)
        )
        let expected =
            "--Boundary+0123456789ABCDEF\r\n"
            + "Content-Disposition: form-data; name=\"t\"\r\nContent-Type: text/csv\r\nX-A: 1\r\nX-B: 2\r\n\r\nx"
            + "\r\n--Boundary+0123456789ABCDEF--\r\n"
        #expect(try form.encoded() == Data(expected.utf8))
    }

    @Test("An empty body has no bytes")
    func emptyBody() throws {
        let form = try fixedForm()
        #expect(form.isEmpty)
        #expect(form.contentLength == 0)
        #expect(try form.encoded() == Data())
    }

    @Test("Empty parts are valid and never opened")
    func emptyParts() throws {
        let empty = try TemporaryFile(bytes: Data())
        var form = try fixedForm()
        try form.appendPart(formData: Data(), name: "e")
        try form.appendPart(fileURL: empty.url, name: "f")
        try form.appendPart(
            inputStream: InputStream(data: Data()),
            name: "s",
            fileName: "s.bin",
            length: 0,
            mimeType: "application/octet-stream"
        )
        let body = try form.encoded()
        #expect(UInt64(body.count) == form.contentLength)
        #expect(String(decoding: body, as: UTF8.self).components(separatedBy: "--" + Self.boundary).count == 5)
    }

    // MARK: Names

    @Test("Names and file names escape \", CR and LF as RFC 7578 says")
    func escaping() throws {
        var form = try fixedForm()
        try form.appendPart(
            data: Data("x".utf8),
            name: "a\"b\r\nc",
            fileName: "evil\".txt\r\nX-Injected: 1",
            mimeType: "text/plain"
        )
        let text = String(decoding: try form.encoded(), as: UTF8.self)
        #expect(
            text.contains(
                "Content-Disposition: form-data; name=\"a%22b%0D%0Ac\"; filename=\"evil%22.txt%0D%0AX-Injected: 1\"\r\n"
            )
        )
        #expect(!text.contains("\r\nX-Injected"))
    }

    @Test("Non-ASCII names are sent as UTF-8")
    func unicodeNames() throws {
        var form = try fixedForm()
        try form.appendPart(formData: Data("v".utf8), name: "prénom 🐦")
        #expect(String(decoding: try form.encoded(), as: UTF8.self).contains("name=\"prénom 🐦\""))
    }

    @Test("A name or header containing the boundary is refused")
    func boundaryInName() throws {
        var form = try fixedForm()
        let error = try #require(throws: RequestSerializationError.self) {
            try form.appendPart(formData: Data(), name: "x--\(Self.boundary)")
        }
        #expect(error.code == .invalidMultipartName)
        #expect(throws: RequestSerializationError.self) {
            try form.appendPart(data: Data(), name: "n", fileName: Self.boundary, mimeType: "text/plain")
        }
        #expect(throws: RequestSerializationError.self) {
            try form.appendPart(headers: ["X-Tag": Self.boundary], body: Data())
        }
        #expect(form.isEmpty)
    }

    @Test("NUL in a name, CR LF in a custom header or a type are invalid headers")
    func invalidPartHeaders() throws {
        var form = try fixedForm()
        let nul = try #require(throws: GannetError.self) { try form.appendPart(formData: Data(), name: "a\u{0}b") }
        #expect(nul.code == .invalidHeader)
        #expect(throws: GannetError.self) { try form.appendPart(headers: ["X-A": "1\r\nX-B: 2"], body: Data()) }
        #expect(throws: GannetError.self) { try form.appendPart(headers: ["Bad Name": "1"], body: Data()) }
        #expect(throws: GannetError.self) {
            try form.appendPart(data: Data(), name: "a", fileName: "b", mimeType: "text/plain\r\nX: y")
        }
        #expect(form.isEmpty)
    }

    // MARK: Boundary

    @Test("Random boundaries are Boundary+ and 16 hex digits, and differ")
    func randomBoundaries() {
        let boundaries = (0..<100).map { _ in MultipartFormData().boundary }
        for boundary in boundaries {
            #expect(boundary.wholeMatch(of: /Boundary\+[0-9A-F]{16}/) != nil, "\(boundary)")
        }
        #expect(Set(boundaries).count == 100)
    }

    @Test(
        "A custom boundary must be RFC 2046 bchars",
        arguments: ["", "a\r\nb", "ends with space ", String(repeating: "x", count: 71), "a\"b", "é"]
    )
    func invalidBoundary(boundary: String) throws {
        let error = try #require(throws: RequestSerializationError.self) { try MultipartFormData(boundary: boundary) }
        #expect(error.code == .invalidMultipartName)
    }

    // MARK: Files

    @Test("A file part takes its file name and MIME type from the URL")
    func filePartNaming() throws {
        let file = try TemporaryFile(bytes: Data("jpeg?".utf8), name: "photo.JPG")
        var form = try fixedForm()
        try form.appendPart(fileURL: file.url, name: "photo")
        let text = String(decoding: try form.encoded(), as: UTF8.self)
        #expect(
            text.contains(
                "Content-Disposition: form-data; name=\"photo\"; filename=\"photo.JPG\"\r\nContent-Type: image/jpeg\r\n\r\njpeg?\r\n"
            )
        )
    }

    @Test("MIME types from the built-in table, octet-stream otherwise")
    func mimeTypes() {
        #expect(MIMEType.forPathExtension("png") == "image/png")
        #expect(MIMEType.forPathExtension("JSON") == "application/json")
        #expect(MIMEType.forPathExtension("tar") == "application/x-tar")
        #expect(
            MIMEType.forPathExtension("docx")
                == "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
        )
        // AFNetworking's testThatAFHTTPRequestSerialiationSerializesMIMETypeCorrectly expected
        // Apple's application/x-x509-ca-cert for .cer; Gannet's table has the IANA registration
        // (RFC 2585), a deliberate difference listed in docs/conformance.md.
        #expect(MIMEType.forPathExtension("cer") == "application/pkix-cert")
        #expect(MIMEType.forPathExtension("unknown-ext") == "application/octet-stream")
        #expect(MIMEType.forPathExtension("") == "application/octet-stream")
    }

    @Test("Missing files, directories and non-file URLs fail at append time")
    func unreadableFiles() throws {
        var form = try fixedForm()
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).txt")
        let cases = [missing, URL(fileURLWithPath: NSTemporaryDirectory()), URL(string: "http://127.0.0.1/file.txt")!]
        for url in cases {
            let error = try #require(throws: RequestSerializationError.self) {
                try form.appendPart(fileURL: url, name: "f")
            }
            #expect(error.code == .fileNotReadable, "\(url)")
        }
        #expect(form.isEmpty)
    }

    @Test("A file that shrank after it was appended fails the read instead of sending a short body")
    func shrunkFile() throws {
        let file = try TemporaryFile(bytes: Data(repeating: 7, count: 10_000))
        var form = try fixedForm()
        try form.appendPart(fileURL: file.url, name: "f")
        try Data(repeating: 7, count: 100).write(to: file.url)
        let error = try #require(throws: RequestSerializationError.self) { try form.encoded() }
        #expect(error.code == .bodyStreamFailed)
        #expect(!FileDescriptors.isOpen(file.url))
    }

    @Test("A file that grew after it was appended sends only the recorded bytes")
    func grownFile() throws {
        let file = try TemporaryFile(bytes: Data("abc".utf8))
        var form = try fixedForm()
        try form.appendPart(fileURL: file.url, name: "f", fileName: "f", mimeType: "text/plain")
        try Data("abcdef".utf8).write(to: file.url)
        let body = try form.encoded()
        #expect(UInt64(body.count) == form.contentLength)
        #expect(String(decoding: body, as: UTF8.self).contains("\r\n\r\nabc\r\n--"))
    }

    // MARK: Streams

    @Test("A stream part sends its declared length; a short stream fails")
    func streamParts() throws {
        var long = try fixedForm()
        try long.appendPart(
            inputStream: InputStream(data: Data("0123456789".utf8)),
            name: "s",
            fileName: "s",
            length: 4,
            mimeType: "text/plain"
        )
        #expect(String(decoding: try long.encoded(), as: UTF8.self).contains("\r\n\r\n0123\r\n--"))

        var short = try fixedForm()
        try short.appendPart(
            inputStream: InputStream(data: Data("01".utf8)),
            name: "s",
            fileName: "s",
            length: 4,
            mimeType: "text/plain"
        )
        let error = try #require(throws: RequestSerializationError.self) { try short.encoded() }
        #expect(error.code == .bodyStreamFailed)
    }

    @Test("A negative stream length is refused")
    func negativeLength() throws {
        var form = try fixedForm()
        #expect(throws: RequestSerializationError.self) {
            try form.appendPart(
                inputStream: InputStream(data: Data()),
                name: "s",
                fileName: "s",
                length: -1,
                mimeType: "text/plain"
            )
        }
    }

    // MARK: Reading

    @Test(
        "Content-Length equals the bytes read, for every buffer size, from a file, a stream and data",
        arguments: [1, 2, 7, 64, 4096, 1 << 20]
    )
    func mixedSources(bufferSize: Int) throws {
        // Given
        let fileBytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let streamBytes = Data((0..<3_333).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let file = try TemporaryFile(bytes: fileBytes, name: "data.bin")
        var form = try fixedForm()
        try form.appendPart(formData: Data("field".utf8), name: "field")
        try form.appendPart(fileURL: file.url, name: "file")
        try form.appendPart(
            inputStream: InputStream(data: streamBytes),
            name: "stream",
            fileName: "s.bin",
            length: Int64(streamBytes.count),
            mimeType: "application/octet-stream"
        )
        try form.appendPart(data: Data("tail".utf8), name: "data", fileName: "t.txt", mimeType: "text/plain")
        // When
        let reader = form.makeBodyReader()
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: bufferSize)
        while case let count = try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }), count > 0 {
            #expect(count <= bufferSize)
            body.append(contentsOf: buffer[..<count])
        }
        // Then
        #expect(UInt64(body.count) == form.contentLength)
        #expect(reader.bytesRead == form.contentLength)
        #expect(reader.isAtEnd)
        #expect(body.range(of: fileBytes) != nil)
        #expect(body.range(of: streamBytes) != nil)
        #expect(body.suffix(2 + 2 + Self.boundary.utf8.count + 4) == Data("\r\n--\(Self.boundary)--\r\n".utf8))
        #expect(!FileDescriptors.isOpen(file.url))
    }

    @Test("Throttling caps every read at the packet size and keeps the body whole")
    func throttle() throws {
        // Given
        var form = try fixedForm()
        try form.appendPart(
            data: Data(repeating: 1, count: 1_000),
            name: "d",
            fileName: "d",
            mimeType: "application/octet-stream"
        )
        let unthrottled = try form.encoded()
        form.throttleBandwidth(packetSize: 100, delay: 0.001)
        // When
        let reader = form.makeBodyReader()
        var sizes: [Int] = []
        var body = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let count = try buffer.withUnsafeMutableBytes({ try reader.read(into: $0) }), count > 0 {
            sizes.append(count)
            body.append(contentsOf: buffer[..<count])
        }
        // Then
        #expect(body == unthrottled)
        #expect(sizes.dropLast().allSatisfy { $0 == 100 })
        #expect(sizes.count == (unthrottled.count + 99) / 100)
        #expect(form.packetSize == 100)
        #expect(form.delay == 0.001)
    }

    @Test("Each reader opens files anew, so a file body can be read twice")
    func readTwice() throws {
        let file = try TemporaryFile(bytes: Data("twice".utf8))
        var form = try fixedForm()
        try form.appendPart(fileURL: file.url, name: "f")
        #expect(try form.encoded() == (try form.encoded()))
    }

    @Test("Abandoning or closing a reader midway closes its file")
    func abandonedReader() throws {
        let file = try TemporaryFile(bytes: Data(repeating: 3, count: 100_000))
        var form = try fixedForm()
        try form.appendPart(fileURL: file.url, name: "f")
        var reader: MultipartBodyReader? = form.makeBodyReader()
        var buffer = [UInt8](repeating: 0, count: 1000)
        _ = try buffer.withUnsafeMutableBytes { try reader!.read(into: $0) }
        #expect(FileDescriptors.isOpen(file.url))
        reader = nil
        #expect(!FileDescriptors.isOpen(file.url))

        let closed = form.makeBodyReader()
        _ = try buffer.withUnsafeMutableBytes { try closed.read(into: $0) }
        closed.close()
        #expect(!FileDescriptors.isOpen(file.url))
        let error = try #require(throws: RequestSerializationError.self) {
            try buffer.withUnsafeMutableBytes { try closed.read(into: $0) }
        }
        #expect(error.code == .bodyStreamFailed)
    }
}
