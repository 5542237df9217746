import Testing

@testable import GannetRequestSerialization

/// The multipart body as `InputStream` (how the engine reads it), multipart requests, and
/// writing a body to a file.
@Suite("Multipart requests and body stream")
struct MultipartRequestTests {
    private let base = "http://127.0.0.1:1/post"

    /// Reads a stream the way a Foundation consumer does: open, read while bytes are available, close.
    private func drain(_ stream: InputStream, chunk: Int = 1000) -> (Data, Int) {
        stream.open()
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: chunk)
        var result = 0
        while stream.hasBytesAvailable {
            result = stream.read(&buffer, maxLength: chunk)
            if result <= 0 { break }
            data.append(contentsOf: buffer[..<result])
        }
        return (data, result)
    }

    // MARK: InputStream subclass

    @Test("Reading through the InputStream subclass yields the whole multi-part body")
    func inputStreamRead() throws {
        // Given a body with parts from a file, a stream and data
        let file = try TemporaryFile(bytes: Data(repeating: 0x41, count: 50_000), name: "a.txt")
        var form = try MultipartFormData(boundary: "Boundary+00000000000000AA")
        try form.appendPart(formData: Data("v".utf8), name: "field")
        try form.appendPart(fileURL: file.url, name: "file")
        try form.appendPart(
            inputStream: InputStream(data: Data(repeating: 0x42, count: 777)),
            name: "s",
            fileName: "s",
            length: 777,
            mimeType: "text/plain"
        )
        let expected = try { () throws -> Data in
            var copy = try MultipartFormData(boundary: "Boundary+00000000000000AA")
            try copy.appendPart(formData: Data("v".utf8), name: "field")
            try copy.appendPart(fileURL: file.url, name: "file")
            try copy.appendPart(
                data: Data(repeating: 0x42, count: 777),
                name: "s",
                fileName: "s",
                mimeType: "text/plain"
            )
            return try copy.encoded()
        }()
        // When
        let stream: InputStream = form.makeInputStream()
        #expect(stream.streamStatus == .notOpen)
        let (body, last) = drain(stream, chunk: 4096)
        // Then
        #expect(body == expected)
        #expect(last > 0)
        #expect(stream.streamStatus == .atEnd)
        #expect(!stream.hasBytesAvailable)
        var byte: UInt8 = 0
        #expect(stream.read(&byte, maxLength: 1) == 0)
        stream.close()
        #expect(stream.streamStatus == .closed)
        #expect(!FileDescriptors.isOpen(file.url))
    }

    @Test("Reading before open fails with a stream error")
    func readBeforeOpen() throws {
        var form = try MultipartFormData(boundary: "B")
        try form.appendPart(formData: Data("v".utf8), name: "f")
        let stream = form.makeInputStream()
        var byte: UInt8 = 0
        #expect(stream.read(&byte, maxLength: 1) == -1)
        #expect(stream.streamStatus == .error)
        #expect((stream.streamError as? RequestSerializationError)?.code == .bodyStreamFailed)
    }

    @Test("A failing part makes read return -1 with the typed error in streamError")
    func failingPart() throws {
        var form = try MultipartFormData(boundary: "B")
        try form.appendPart(
            inputStream: InputStream(data: Data("short".utf8)),
            name: "s",
            fileName: "s",
            length: 100,
            mimeType: "text/plain"
        )
        let stream = form.makeInputStream()
        let (_, last) = drain(stream)
        #expect(last == -1)
        #expect(stream.streamStatus == .error)
        #expect((stream.streamError as? RequestSerializationError)?.code == .bodyStreamFailed)
    }

    @Test("The stream reports its content length")
    func contentLength() throws {
        var form = try MultipartFormData(boundary: "B")
        try form.appendPart(formData: Data("v".utf8), name: "f")
        #expect(form.makeInputStream().contentLength == form.contentLength)
    }

    // MARK: multipartFormRequest

    @Test("Parameters become form fields first, in query order, then the block's parts")
    func multipartFormRequest() throws {
        // Given
        let serializer = HTTPRequestSerializer()
        let parameters: Parameters = [
            "b": "2", "a": ["x", "y"], "n": NSNull(), "d": Data([0xFF, 0x00]), "u": ["k": true],
        ]
        // When
        let request = try serializer.multipartFormRequest(method: "POST", urlString: base, parameters: parameters) {
            form in
            try form.appendPart(data: Data("file".utf8), name: "upload", fileName: "f.txt", mimeType: "text/plain")
        }
        // Then
        let contentType = try #require(request.value(forHTTPHeaderField: "Content-Type"))
        let boundary = String(
            try #require(contentType.wholeMatch(of: /multipart\/form-data; boundary=(Boundary\+[0-9A-F]{16})/)).1
        )
        let (body, _) = drain(try #require(request.httpBodyStream))
        #expect(request.value(forHTTPHeaderField: "Content-Length") == String(body.count))
        #expect(request.httpBody == nil)
        #expect(request.httpBodyStream is MultipartBodyStream)
        func field(_ name: String, _ value: String) -> String {
            "Content-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)"
        }
        let expected =
            "--\(boundary)\r\n" + field("a[]", "x")
            + "\r\n--\(boundary)\r\n" + field("a[]", "y")
            + "\r\n--\(boundary)\r\n" + field("b", "2")
            + "\r\n--\(boundary)\r\n" + "Content-Disposition: form-data; name=\"d\"\r\n\r\n"
        let suffix =
            "\r\n--\(boundary)\r\n" + field("n", "")
            + "\r\n--\(boundary)\r\n" + field("u[k]", "1")
            + "\r\n--\(boundary)\r\n"
            + "Content-Disposition: form-data; name=\"upload\"; filename=\"f.txt\"\r\nContent-Type: text/plain\r\n\r\nfile"
            + "\r\n--\(boundary)--\r\n"
        #expect(body == Data(expected.utf8) + Data([0xFF, 0x00]) + Data(suffix.utf8))
    }

    @Test("GET and HEAD cannot carry a multipart body", arguments: ["GET", "HEAD"])
    func multipartGet(method: String) throws {
        let error = try #require(throws: GannetError.self) {
            try HTTPRequestSerializer().multipartFormRequest(method: method, urlString: base, parameters: ["a": 1])
        }
        #expect(error.code == .invalidRequest)
        #expect(error.failingRequest?.httpMethod == method)
    }

    @Test("No parameters and no parts: no body, as AFNetworking")
    func emptyMultipart() throws {
        let request = try HTTPRequestSerializer().multipartFormRequest(method: "POST", urlString: base)
        #expect(request.httpBodyStream == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test("An error thrown while appending reaches the caller")
    func appendErrorPropagates() throws {
        let error = try #require(throws: RequestSerializationError.self) {
            try HTTPRequestSerializer().multipartFormRequest(method: "POST", urlString: base) { form in
                try form.appendPart(fileURL: URL(fileURLWithPath: "/nonexistent/x.bin"), name: "f")
            }
        }
        #expect(error.code == .fileNotReadable)
    }

    @Test("MultipartRequestSerializer works through RequestSerializing, fresh boundary per request")
    func serializerConformance() throws {
        let serializer: any RequestSerializing = MultipartRequestSerializer { form in
            try form.appendPart(formData: Data("v".utf8), name: "f")
        }
        var request = URLRequest(url: URL(string: base)!)
        request.httpMethod = "PUT"
        request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        let first = try serializer.request(byEncoding: ["p": 1], into: request)
        let second = try serializer.request(byEncoding: nil, into: request)
        #expect(
            first.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("multipart/form-data; boundary=Boundary+")
                == true
        )
        #expect(first.value(forHTTPHeaderField: "Content-Type") != second.value(forHTTPHeaderField: "Content-Type"))
        let (body, _) = drain(try #require(first.httpBodyStream))
        #expect(String(decoding: body, as: UTF8.self).contains("name=\"p\"\r\n\r\n1\r\n"))
    }

    // MARK: writeMultipartBody

    @Test("writeMultipartBody writes the body to a file and returns the request without its stream")
    func writeBody() async throws {
        // Given
        let source = try TemporaryFile(bytes: Data(repeating: 9, count: 200_000), name: "src.bin")
        let serializer = HTTPRequestSerializer()
        let request = try serializer.multipartFormRequest(method: "POST", urlString: base, parameters: ["a": "1"]) {
            form in
            try form.appendPart(fileURL: source.url, name: "f")
        }
        let output = try TemporaryFile(bytes: Data(), name: "body.bin")
        // When
        let written = try await serializer.writeMultipartBody(of: request, to: output.url)
        // Then
        let bytes = try Data(contentsOf: output.url)
        #expect(written.httpBodyStream == nil)
        #expect(written.value(forHTTPHeaderField: "Content-Length") == String(bytes.count))
        #expect(written.value(forHTTPHeaderField: "Content-Type") == request.value(forHTTPHeaderField: "Content-Type"))
        #expect(bytes.range(of: Data(repeating: 9, count: 200_000)) != nil)
        #expect(!FileDescriptors.isOpen(output.url))
        #expect(!FileDescriptors.isOpen(source.url))
    }

    @Test("writeMultipartBody with a completion handler")
    func writeBodyCompletion() async throws {
        let serializer = HTTPRequestSerializer()
        let request = try serializer.multipartFormRequest(method: "POST", urlString: base, parameters: ["a": "1"])
        let output = try TemporaryFile(bytes: Data(), name: "body.bin")
        let error: (any Error)? = await withCheckedContinuation { continuation in
            let returned = serializer.writeMultipartBody(of: request, to: output.url, queue: .global()) {
                continuation.resume(returning: $0)
            }
            #expect(returned.httpBodyStream == nil)
        }
        #expect(error == nil)
        #expect(
            try Data(contentsOf: output.url).count == Int(request.value(forHTTPHeaderField: "Content-Length") ?? "")
        )
    }

    @Test("A failing body removes the partial file; a request without a stream is refused")
    func writeBodyFailures() async throws {
        let serializer = HTTPRequestSerializer()
        let folder = try TemporaryFile(bytes: Data(), name: "unused")
        let target = folder.url.deletingLastPathComponent().appendingPathComponent("out.bin")

        let failing = try serializer.multipartFormRequest(method: "POST", urlString: base) { form in
            try form.appendPart(formData: Data(repeating: 1, count: 100_000), name: "big")
            try form.appendPart(
                inputStream: InputStream(data: Data("x".utf8)),
                name: "s",
                fileName: "s",
                length: 10,
                mimeType: "text/plain"
            )
        }
        await #expect(throws: RequestSerializationError.self) {
            try await serializer.writeMultipartBody(of: failing, to: target)
        }
        #expect(!FileManager.default.fileExists(atPath: target.path))

        let plain = try serializer.request(method: "POST", urlString: base, parameters: ["a": 1])
        let error = await #expect(throws: RequestSerializationError.self) {
            try await serializer.writeMultipartBody(of: plain, to: target)
        }
        #expect(error?.code == .bodyWriteFailed)
    }
}
