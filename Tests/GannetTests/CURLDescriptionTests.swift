import Foundation
import Gannet
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `cURLDescription()` is right when the curl tool, running it, makes httpbin echo exactly what
/// it echoed to Gannet: method, URL, query, form, JSON, files, body and every header.
@Suite("cURLDescription replays with the curl tool")
struct CURLDescriptionTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// httpbin's echo of `request` sent by a default-configured manager.
    private func gannetEcho(_ request: URLRequest) async throws -> NSDictionary {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let response = await withCheckedContinuation { continuation in
            manager.dataTask(with: request, serializer: .passthrough) { continuation.resume(returning: $0) }.resume()
        }
        #expect(response.response?.statusCode == 200)
        return try echo(response.data ?? Data())
    }

    /// httpbin's echo of `description` run by `/bin/sh -c`.
    private func curlEcho(_ description: String) async throws -> NSDictionary {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            throw TestServerError("The curl tool is missing; run scripts/install-deps.sh")
        }
        let output: (Int32, Data, Data) = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let process = ChildProcess()
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", description]
                let out = Pipe()
                let err = Pipe()
                process.standardOutput = out
                process.standardError = err
                do {
                    try process.run()
                    let data = out.fileHandleForReading.readDataToEndOfFile()
                    let errors = err.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(returning: (process.terminationStatus, data, errors))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        #expect(output.0 == 0, "curl failed: \(String(decoding: output.2, as: UTF8.self))")
        return try echo(output.1)
    }

    private func echo(_ data: Data) throws -> NSDictionary {
        let object = try JSONSerialization.jsonObject(with: data)
        return try #require(object as? NSDictionary, "not a JSON object: \(String(decoding: data, as: UTF8.self))")
    }

    private func expectSameEcho(
        _ request: URLRequest,
        description: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let description = description ?? request.cURLDescription()
        let viaGannet = try await gannetEcho(request)
        let viaCurl = try await curlEcho(description)
        #expect(
            viaGannet == viaCurl,
            "\(description)\nGannet: \(viaGannet)\ncurl: \(viaCurl)",
            sourceLocation: sourceLocation
        )
    }

    /// A quote followed by a combining mark is one `Character` that is not `'`: quoting by
    /// `Character` left it bare, the shell word ended there, and the rest of the body ran as
    /// shell syntax.
    @Test func aQuoteBeforeACombiningMarkStaysInsideTheShellWord() async throws {
        var request = URLRequest(url: servers.httpbin.appendingPathComponent("post"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(#"{"note":"it'\#u{0654}s; echo injected '"}"#.utf8)
        let description = request.cURLDescription()
        #expect(description.contains("'\\''\u{0654}"), "\(description)")
        try await expectSameEcho(request, description: description)
    }

    @Test func getWithQuery() async throws {
        let request = try HTTPRequestSerializer().request(
            method: "GET",
            urlString: servers.httpbin.appendingPathComponent("get").absoluteString,
            parameters: ["q": "gannet's nest & more", "tags": ["a", "b"], "n": 3, "é": "ü"]
        )
        let description = request.cURLDescription()
        #expect(description.contains("--globoff") == description.contains("["))
        try await expectSameEcho(request)
    }

    @Test func formPost() async throws {
        var request = try HTTPRequestSerializer().request(
            method: "POST",
            urlString: servers.httpbin.appendingPathComponent("post").absoluteString,
            parameters: ["name": "O'Brien", "note": "a&b=c %", "city": "Zürich"]
        )
        request.setValue("", forHTTPHeaderField: "X-Empty")
        try await expectSameEcho(request)
    }

    @Test func jsonPostAndPut() async throws {
        let parameters: Parameters = [
            "bird": "gannet", "quote": "it's \"wild\"\n", "wings": 2, "tags": ["sea", "white"], "nested": ["ok": true],
        ]
        for method in ["POST", "PUT"] {
            let request = try JSONRequestSerializer().request(
                method: method,
                urlString: servers.httpbin.appendingPathComponent("anything").absoluteString,
                parameters: parameters
            )
            try await expectSameEcho(request)
        }
    }

    @Test func multipartWithBinaryPart() async throws {
        var request = try HTTPRequestSerializer().multipartFormRequest(
            method: "POST",
            urlString: servers.httpbin.appendingPathComponent("post").absoluteString,
            parameters: ["title": "Gannets", "quote": "it's"]
        ) { formData in
            try formData.appendPart(
                data: Data((0...255).map(UInt8.init) + (0...255).map(UInt8.init)),
                name: "file",
                fileName: "bytes.bin",
                mimeType: "application/octet-stream"
            )
            try formData.appendPart(
                data: Data("plain 'text' %s \\n\n".utf8),
                name: "notes",
                fileName: "notes.txt",
                mimeType: "text/plain"
            )
        }
        // The serializer streams the body, which a description cannot show: it says so.
        #expect(request.cURLDescription().hasPrefix("# The body is streamed"))
        // The same bytes as data replay exactly.
        // One storage in Foundation: clearing the stream after setting the data would clear both.
        let body = try readAll(#require(request.httpBodyStream))
        request.httpBodyStream = nil
        request.httpBody = body
        #expect(body.count > 512)
        #expect(request.cURLDescription().hasPrefix("printf '"))
        try await expectSameEcho(request)
    }

    @Test func multipartUploadedFromAFile() async throws {
        let serializer = HTTPRequestSerializer()
        let streamed = try serializer.multipartFormRequest(
            method: "POST",
            urlString: servers.httpbin.appendingPathComponent("post").absoluteString,
            parameters: ["title": "Gannets"]
        ) { formData in
            try formData.appendPart(
                data: Data((0...255).map(UInt8.init)),
                name: "file",
                fileName: "bytes.bin",
                mimeType: "application/octet-stream"
            )
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gannet multipart '\(UUID()).body")
        defer { try? FileManager.default.removeItem(at: file) }
        let request = try await serializer.writeMultipartBody(of: streamed, to: file)

        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let task = manager.uploadTask(with: request, fromFile: file, serializer: .passthrough) { _ in }
        let description = task.cURLDescription()
        #expect(description.contains("--data-binary @"))
        let viaCurl = try await curlEcho(description)
        let response = await withCheckedContinuation { continuation in
            manager.uploadTask(with: request, fromFile: file, serializer: .passthrough) {
                continuation.resume(returning: $0)
            }.resume()
        }
        task.cancel()
        #expect(try echo(response.data ?? Data()) == viaCurl)
    }

    @Test func redirectIsFollowedLikeGannet() async throws {
        var components = URLComponents(
            url: servers.httpbin.appendingPathComponent("redirect-to"),
            resolvingAgainstBaseURL: false
        )!
        components.queryItems = [
            URLQueryItem(name: "url", value: "/anything?after=redirect"),
            URLQueryItem(name: "status_code", value: "303"),
        ]
        var request = URLRequest(url: components.url!)
        request.httpMethod = "POST"
        request.httpBody = Data("dropped=1".utf8)
        try await expectSameEcho(request)
    }

    @Test func taskDescriptionUsesTheManagersConfiguration() async throws {
        var configuration = SessionConfiguration.default
        configuration.httpAdditionalHeaders = ["X-Session": "from-configuration"]
        configuration.decompressesResponses = false
        configuration.httpVersion = .http1_1
        configuration.tls.caFile = "/etc/ssl/gannet test/ca.pem"
        let manager = SessionManager(configuration: configuration)
        defer { manager.finishTasksAndInvalidate() }
        let task = manager.dataTask(
            with: URLRequest(url: servers.httpbin.appendingPathComponent("headers")),
            serializer: .passthrough
        ) { _ in }
        defer { task.cancel() }
        let description = task.cURLDescription()
        #expect(description.contains("--header 'X-Session: from-configuration'"))
        #expect(!description.contains("--compressed"))
        #expect(description.contains("--http1.1"))
        #expect(description.contains("--cacert '/etc/ssl/gannet test/ca.pem'"))
    }

    private func readAll(_ stream: InputStream) throws -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 { throw stream.streamError ?? TestServerError("the body stream failed") }
            if count == 0 { return data }
            data.append(buffer, count: count)
        }
    }
}
