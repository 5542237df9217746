import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("The whole response from one async call")
struct WholeResponseTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    @Test("response(for:) keeps the head as received, reason phrase included; get() gives value and response")
    func headAsReceived() async throws {
        let url = servers.httpbin.adding("/response-headers?X-Mixed-Case=one&X-Twice=a&X-Twice=b")
        let whole = await SessionManager().response(for: URLRequest(url: url), serializer: .passthrough)
        let (body, response) = try whole.get()
        #expect(response.statusCode == 200)
        #expect(!body.isEmpty)
        #expect(whole.httpVersion == "HTTP/1.1")
        #expect(whole.reasonPhrase == "OK")
        #expect(whole.headerFields.contains { $0.name == "X-Mixed-Case" && $0.value == "one" })
        #expect(whole.headerFields.filter { $0.name == "X-Twice" }.map(\.value) == ["a", "b"])
        #expect(whole.request?.url == url)
        #expect(whole.metrics != nil)
    }

    @Test("streamedResponse(for:) keeps the head as received and streams the body")
    func streamedHeadAsReceived() async throws {
        let url = servers.httpbin.adding("/response-headers?X-Mixed-Case=one&X-Twice=a&X-Twice=b")
        let streamed = try await SessionManager().streamedResponse(for: URLRequest(url: url))
        #expect(streamed.statusCode == 200)
        #expect(streamed.reasonPhrase == "OK")
        #expect(streamed.httpVersion == "HTTP/1.1")
        #expect(streamed.headerFields.contains { $0.name == "X-Mixed-Case" && $0.value == "one" })
        #expect(streamed.headerFields.filter { $0.name == "X-Twice" }.map(\.value) == ["a", "b"])
        #expect(streamed.headerValue("x-twice") == "a, b")
        #expect(streamed.response?.statusCode == 200)
        #expect(streamed.response?.value(forHTTPHeaderField: "X-Twice") == "a, b", "HTTPURLResponse merges them")
        var body = Data()
        for try await chunk in streamed.body { body.append(chunk) }
        let echoed = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(echoed["X-Twice"] as? [String] == ["a", "b"])
    }

    @Test("response(for:fromFile:) streams the file up, reports progress and keeps the head")
    func uploadFromFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-whole-\(UUID()).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        let payload = String(repeating: "gannet ", count: 10_000)
        try Data(payload.utf8).write(to: file)
        var request = URLRequest(url: servers.httpbin.adding("/anything"))
        request.httpMethod = "PUT"
        let sent = Mutex<Int64>(0)
        let whole = await SessionManager().response(
            for: request,
            fromFile: file,
            serializer: .passthrough,
            uploadProgress: { progress in sent.withLock { $0 = max($0, progress.completedUnitCount) } }
        )
        let (body, response) = try whole.get()
        #expect(response.statusCode == 200)
        #expect(whole.reasonPhrase == "OK")
        let echoed = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(echoed["method"] as? String == "PUT")
        #expect(echoed["data"] as? String == payload)
        #expect(sent.withLock { $0 } == Int64(payload.utf8.count))
    }

    @Test("response(for:) reports download progress")
    func progress() async throws {
        let seen = Mutex<Int64>(0)
        let whole = await SessionManager().response(
            for: URLRequest(url: servers.httpbin.adding("/bytes/65536")),
            serializer: .passthrough,
            downloadProgress: { progress in seen.withLock { $0 = max($0, progress.completedUnitCount) } }
        )
        let (body, _) = try whole.get()
        #expect(body.count == 65536)
        #expect(seen.withLock { $0 } > 0)
    }

    @Test("get() throws the transport error for a refused connection")
    func getThrows() async throws {
        let whole = await SessionManager().response(
            for: URLRequest(url: URL(string: "http://127.0.0.1:1/")!),
            serializer: .passthrough
        )
        #expect(whole.headerFields.isEmpty)
        #expect(throws: URLError.self) { _ = try whole.get() }
    }

    @Test("downloadResponse(for:) returns the file, the head and the metrics")
    func download() async throws {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-whole-\(UUID()).bin")
        defer { try? FileManager.default.removeItem(at: target) }
        let whole = await SessionManager().downloadResponse(for: URLRequest(url: servers.httpbin.adding("/bytes/4096")))
        { _, _ in target }
        let (file, response) = try whole.get()
        #expect(file == target)
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: target).count == 4096)
        #expect(whole.headerFields.contains { $0.name.lowercased() == "content-length" && $0.value == "4096" })
    }

    @Test("AnyResponseSerializer turns an empty optional into nil however deep, and keeps a value")
    func erasure() throws {
        struct Nested: ResponseSerializing {
            let value: Int??
            func serialize(_ input: ResponseInput) throws -> Int?? { value }
        }
        #expect(
            try AnyResponseSerializer(Nested(value: .some(.none))).serialize(
                request: nil,
                response: nil,
                data: nil,
                error: nil
            ) == nil
        )
        #expect(
            try AnyResponseSerializer(Nested(value: .none)).serialize(
                request: nil,
                response: nil,
                data: nil,
                error: nil
            ) == nil
        )
        let kept = try AnyResponseSerializer(Nested(value: 7)).serialize(
            request: nil,
            response: nil,
            data: nil,
            error: nil
        )
        #expect(kept as? Int == 7)
        let twice = AnyResponseSerializer(AnyResponseSerializer(PassthroughResponseSerializer()))
        #expect(twice.base is PassthroughResponseSerializer)
        // Wrapped again through an existential, as a manager holds its serializer.
        let held: any ResponseSerializing = twice
        #expect(AnyResponseSerializer(held).base is PassthroughResponseSerializer)
        #expect(AnyResponseSerializer(Nested(value: 1)).base is Nested)
    }
}
