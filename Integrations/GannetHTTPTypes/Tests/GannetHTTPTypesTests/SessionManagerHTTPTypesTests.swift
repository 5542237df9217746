import Foundation
import GannetHTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What echo_server.py's `/echo` answers.
struct Echo: Decodable {
    let method: String
    let path: String
    let query: String
    let headers: [[String]]
    let body_length: Int
    let body_sha256: String

    func values(_ name: String) -> [String] {
        headers.filter { $0[0].lowercased() == name.lowercased() }.map { $0[1] }
    }
}

/// Adds `X-Adapted: yes` to every attempt: shows the manager's interceptor applies to the
/// HTTPRequest calls.
struct MarkingAdapter: RequestInterceptor {
    func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
        var request = request
        request.setValue("yes", forHTTPHeaderField: "X-Adapted")
        return request
    }
}

func sha256Hex(of data: Data) throws -> String {
    // Computed by the same tool as the server's, so a test compares two independent digests.
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
        "python3", "-c", "import hashlib,sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())",
    ]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    try input.fileHandleForWriting.write(contentsOf: data)
    try input.fileHandleForWriting.close()
    let text = try output.fileHandleForReading.readToEnd() ?? Data()
    process.waitUntilExit()
    return String(decoding: text, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
}

@Suite("SessionManager with HTTPRequest and HTTPResponse")
struct SessionManagerHTTPTypesTests {
    let server: EchoServer
    init() throws { server = try EchoServer.shared() }

    @Test func dataForSendsTheMethodQueryFieldsAndBody() async throws {
        let manager = SessionManager()
        var request = HTTPRequest(method: .post, url: server.url("/echo?a=1&b=two"))
        request.headerFields[.contentType] = "application/json"
        request.headerFields.append(HTTPField(name: HTTPField.Name("X-Repeated")!, value: "one"))
        request.headerFields.append(HTTPField(name: HTTPField.Name("X-Repeated")!, value: "two"))
        let body = Data(#"{"name":"gannet"}"#.utf8)

        let (data, response) = try await manager.data(for: request, body: body)

        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "application/json")
        let echo = try JSONDecoder().decode(Echo.self, from: data)
        #expect(echo.method == "POST")
        #expect(echo.path == "/echo")
        #expect(echo.query == "a=1&b=two")
        #expect(echo.values("Content-Type") == ["application/json"])
        #expect(echo.values("X-Repeated") == ["one, two"])
        #expect(echo.body_length == body.count)
        #expect(echo.body_sha256 == (try sha256Hex(of: body)))
    }

    /// The calls that return an `HTTPResponse`: each must build it from the head as received,
    /// not from the `HTTPURLResponse`, which merges repeated fields and has no reason phrase.
    enum Call: String, CaseIterable, Sendable {
        case data, uploadFromData, uploadFromFile, bytes
    }

    @Test(arguments: Call.allCases)
    func aResponseKeepsItsReasonPhraseAndRepeatedFieldsInOrder(_ call: Call) async throws {
        let manager = SessionManager()
        let request = HTTPRequest(method: .post, url: server.url("/cookies"))
        let response: HTTPResponse
        switch call {
        case .data:
            (_, response) = try await manager.data(for: request)
        case .uploadFromData:
            (_, response) = try await manager.upload(for: request, from: Data("x".utf8))
        case .uploadFromFile:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-httptypes-\(UUID()).txt")
            try Data("x".utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            (_, response) = try await manager.upload(for: request, fromFile: file)
        case .bytes:
            let chunks: AsyncThrowingStream<Data, any Error>
            (response, chunks) = try await manager.bytes(for: request)
            for try await _ in chunks {}
        }

        #expect(response.status.code == 200)
        #expect(response.status.reasonPhrase == "Fine")
        #expect(response.headerFields[values: .setCookie] == ["a=1; Path=/", "b=2; Path=/"])
        #expect(response.headerFields[values: HTTPField.Name("X-Order")!] == ["1", "2"])
    }

    @Test func anErrorStatusIsAResponseNotAnError() async throws {
        let manager = SessionManager()
        let (data, response) = try await manager.data(for: HTTPRequest(method: .get, url: server.url("/status/418")))

        #expect(response.status.code == 418)
        #expect(response.status.kind == .clientError)
        #expect(String(decoding: data, as: UTF8.self) == #"{"status": 418}"#)
    }

    @Test func uploadFromDataAndFromAFileSendTheWholeBody() async throws {
        let manager = SessionManager()
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let request = HTTPRequest(method: .put, url: server.url("/echo"))

        let (fromData, response) = try await manager.upload(for: request, from: payload)
        #expect(response.status == .ok)
        let dataEcho = try JSONDecoder().decode(Echo.self, from: fromData)

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-httptypes-\(UUID()).bin")
        try payload.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (fromFile, fileResponse) = try await manager.upload(for: request, fromFile: file)
        #expect(fileResponse.status == .ok)
        let fileEcho = try JSONDecoder().decode(Echo.self, from: fromFile)

        let digest = try sha256Hex(of: payload)
        #expect(dataEcho.method == "PUT" && fileEcho.method == "PUT")
        #expect(dataEcho.body_length == payload.count && fileEcho.body_length == payload.count)
        #expect(dataEcho.body_sha256 == digest && fileEcho.body_sha256 == digest)
    }

    @Test func bytesStreamsTheResponseBody() async throws {
        let manager = SessionManager()
        let size = 1_000_003
        let (response, chunks) = try await manager.bytes(
            for: HTTPRequest(method: .get, url: server.url("/stream/\(size)"))
        )
        #expect(response.status == .ok)
        #expect(response.headerFields[.contentType] == "application/octet-stream")

        var received = Data()
        var count = 0
        for try await chunk in chunks {
            received.append(chunk)
            count += 1
        }
        let pattern = Data(String(repeating: "0123456789", count: 1639).utf8)
        var expected = Data()
        while expected.count < size { expected.append(pattern.prefix(min(size - expected.count, 16 << 10))) }
        #expect(received == expected)
        #expect(count > 1)
    }

    @Test func bytesSendsAStreamedBodyChunked() async throws {
        let manager = SessionManager()
        let payload = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0) })
        let request = HTTPRequest(method: .post, url: server.url("/echo"))

        let (response, chunks) = try await manager.bytes(for: request, body: .stream(InputStream(data: payload)))
        var data = Data()
        for try await chunk in chunks { data.append(chunk) }

        #expect(response.status == .ok)
        let echo = try JSONDecoder().decode(Echo.self, from: data)
        #expect(echo.values("Transfer-Encoding") == ["chunked"])
        #expect(echo.body_length == payload.count)
        #expect(echo.body_sha256 == (try sha256Hex(of: payload)))
    }

    @Test func theManagersInterceptorAdaptsTheRequest() async throws {
        let manager = SessionManager()
        manager.interceptor = MarkingAdapter()

        let (data, _) = try await manager.data(for: HTTPRequest(method: .get, url: server.url("/echo")))

        #expect(try JSONDecoder().decode(Echo.self, from: data).values("X-Adapted") == ["yes"])
    }

    @Test func cancellingTheSwiftTaskCancelsTheTransfer() async throws {
        let manager = SessionManager()
        let request = HTTPRequest(method: .get, url: server.url("/stream/\(1 << 30)"))
        let reading = Task {
            let (_, chunks) = try await manager.bytes(for: request)
            var total = 0
            for try await chunk in chunks { total += chunk.count }
            return total
        }
        #expect(await eventually { !manager.tasks.isEmpty })
        reading.cancel()
        // The gigabyte is never read: cancelling ends the task, and the manager forgets it.
        let total = try? await reading.value
        #expect((total ?? 0) < 1 << 30)
        #expect(await eventually { manager.tasks.isEmpty })
    }
}

/// Polls `condition` every 10 ms for up to `seconds`: the tests wait for a condition, never for
/// a fixed time (as the root suite's Tests/GannetTestSupport/Eventually.swift does).
func eventually(within seconds: Double = 120, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
