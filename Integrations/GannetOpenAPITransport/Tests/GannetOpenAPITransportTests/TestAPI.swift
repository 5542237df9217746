import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import Synchronization

/// The server side of openapi.yaml, on the generated `APIProtocol`: answers are computed from the
/// request alone (no state between calls), so every transport must get the same ones.
struct TestAPI: APIProtocol {
    /// Shared with the tests: what the server has seen, and gates that hold a stream half-way.
    let probe: ServerProbe

    static let items: [Components.Schemas.Item] = [
        .init(id: 1, name: "one", tags: ["red", "small"]),
        .init(id: 2, name: "two", tags: ["blue"]),
        .init(id: 3, name: "three", tags: ["red", "large"]),
        .init(id: 4, name: "four", tags: ["red"]),
    ]

    func getItem(_ input: Operations.GetItem.Input) async throws -> Operations.GetItem.Output {
        guard var item = Self.items.first(where: { $0.id == input.path.id }) else {
            return .notFound(.init(body: .json(.init(code: 404, message: "no item \(input.path.id)"))))
        }
        if input.query.verbose == true { item.note = "item \(item.id) of \(Self.items.count)" }
        return .ok(.init(headers: .init(xEchoTag: input.headers.xRequestTag), body: .json(item)))
    }

    func listItems(_ input: Operations.ListItems.Input) async throws -> Operations.ListItems.Output {
        let tags = Set(input.query.tag ?? [])
        let matching = Self.items.filter { tags.isEmpty || !tags.isDisjoint(with: $0.tags) }
        return .ok(.init(body: .json(Array(matching.prefix(Int(input.query.limit))))))
    }

    func createItem(_ input: Operations.CreateItem.Input) async throws -> Operations.CreateItem.Output {
        guard case .json(let new) = input.body, !new.name.isEmpty else {
            return .unprocessableContent(.init(body: .json(.init(code: 422, message: "a name is required"))))
        }
        let item = Components.Schemas.Item(id: Int64(100 + new.name.count), name: new.name, tags: new.tags ?? [])
        return .created(.init(body: .json(item)))
    }

    func digestBlob(_ input: Operations.DigestBlob.Input) async throws -> Operations.DigestBlob.Output {
        guard case .binary(let body) = input.body else { throw ServerError("no binary body") }
        var digest = BlobDigest()
        for try await chunk in body {
            digest.add(chunk)
            probe.received(chunk.count)
        }
        return .ok(.init(body: .json(.init(length: digest.length, checksum: digest.checksum))))
    }

    func downloadBlob(_ input: Operations.DownloadBlob.Input) async throws -> Operations.DownloadBlob.Output {
        let size = input.path.size
        let probe = probe
        let stream = AsyncThrowingStream<HTTPBody.ByteChunk, any Error> { continuation in
            let writer = Task {
                var sent: Int64 = 0
                while sent < size, !Task.isCancelled {
                    let count = Int(min(size - sent, 64 << 10))
                    continuation.yield(BlobPattern.bytes(at: sent, count: count))
                    sent += Int64(count)
                    // The streaming test holds the rest back until its client has read the first
                    // write: a transport that waited for the whole body would never see it.
                    if size == ServerProbe.gatedDownloadSize, sent == Int64(count) { await probe.downloadGate.wait() }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in writer.cancel() }
        }
        return .ok(.init(body: .binary(HTTPBody(stream, length: .known(size)))))
    }

    func echoHeaders(_ input: Operations.EchoHeaders.Input) async throws -> Operations.EchoHeaders.Output {
        var fields: [String: String] = [:]
        for field in RequestFields.current ?? HTTPFields() {
            let name = field.name.canonicalName
            fields[name] = fields[name].map { $0 + ", " + field.value } ?? field.value
        }
        return .ok(.init(body: .json(.init(additionalProperties: fields))))
    }
}

/// The request's header fields, for `echoHeaders` (the generated input holds only the declared
/// ones), set by ``RecordingMiddleware``.
enum RequestFields {
    @TaskLocal static var current: HTTPFields?
}

/// Counts the operations that reached the server and keeps their fields for `echoHeaders`.
struct RecordingMiddleware: ServerMiddleware {
    let probe: ServerProbe

    func intercept(
        _ request: HTTPRequest,
        body: HTTPBody?,
        metadata: ServerRequestMetadata,
        operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        probe.operationArrived(operationID)
        return try await RequestFields.$current.withValue(request.headerFields) {
            try await next(request, body, metadata)
        }
    }
}

/// What the server saw, readable by the tests in the same process.
final class ServerProbe: Sendable {
    private struct State {
        var operations: [String] = []
        var bytesReceived = 0
    }
    private let state = Mutex(State())
    /// A download of this size stops after its first write until ``downloadGate`` opens.
    static let gatedDownloadSize: Int64 = 3_000_017
    /// Opened by the streaming test once its client read the first write of a download.
    let downloadGate = Gate()

    func operationArrived(_ id: String) { state.withLock { $0.operations.append(id) } }
    func received(_ count: Int) { state.withLock { $0.bytesReceived += count } }
    var operations: [String] { state.withLock { $0.operations } }
    var bytesReceived: Int { state.withLock { $0.bytesReceived } }
    func resetBytesReceived() { state.withLock { $0.bytesReceived = 0 } }
}

/// A one-way gate, closed at first: `wait()` returns once `open()` was called (at once if it was).
final class Gate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }
}

/// The digest the `digestBlob` operation answers, computed the same way by the tests.
struct BlobDigest: Equatable {
    private(set) var length: Int64 = 0
    private(set) var checksum: Int64 = 0

    mutating func add(_ bytes: some Collection<UInt8>) {
        for byte in bytes {
            // Position-weighted, so a reordered or shifted body gives another checksum.
            checksum = (checksum &* 31 &+ Int64(byte) &+ length % 7) % 1_000_000_007
            length += 1
        }
    }
}

/// The bytes `downloadBlob` sends: byte i is `i % 251` (a prime, so 64 KiB writes do not align).
enum BlobPattern {
    static func bytes(at offset: Int64, count: Int) -> ArraySlice<UInt8> {
        ArraySlice((0..<Int64(count)).map { UInt8((offset + $0) % 251) })
    }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The Hummingbird server implementing openapi.yaml on 127.0.0.1 (a port the system chose),
/// started once per test process.
final class TestServer: Sendable {
    let probe = ServerProbe()
    /// `http://127.0.0.1:<port>/api`, the document's server URL on the bound port.
    let serverURL: URL
    /// `http://127.0.0.1:<port>/plain`: routes outside the document.
    let plainURL: URL

    private static let instance = Mutex<Task<TestServer, any Error>?>(nil)

    static func shared() async throws -> TestServer {
        let task = instance.withLock { instance in
            if let instance { return instance }
            let task = Task { try await TestServer() }
            instance = task
            return task
        }
        return try await task.value
    }

    private init() async throws {
        let router = Router()
        let probe = probe
        try TestAPI(probe: probe).registerHandlers(
            on: router,
            serverURL: URL(string: "/api")!,
            middlewares: [RecordingMiddleware(probe: probe)]
        )
        // Outside the document, for the transport's own tests: a repeated field, which
        // HTTPURLResponse would merge. (Hummingbird writes the standard reason phrase whatever
        // the status says; GannetHTTPTypes' tests check that one is kept.)
        router.get("/plain/cookies") { _, _ -> Response in
            var fields = HTTPFields()
            fields.append(HTTPField(name: .setCookie, value: "a=1; Path=/"))
            fields.append(HTTPField(name: .setCookie, value: "b=2; Path=/"))
            fields.append(HTTPField(name: .contentLength, value: "2"))
            return Response(
                status: .ok,
                headers: fields,
                body: ResponseBody(byteBuffer: ByteBuffer(string: "ok"))
            )
        }
        let port = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                port.continuation.yield(channel.localAddress?.port ?? 0)
                port.continuation.finish()
            }
        )
        // Runs for the rest of the test process.
        Task { try await app.run() }
        var iterator = port.stream.makeAsyncIterator()
        guard let bound = await iterator.next(), bound > 0 else {
            throw ServerError("the Hummingbird server did not start on 127.0.0.1")
        }
        serverURL = URL(string: "http://127.0.0.1:\(bound)/api")!
        plainURL = URL(string: "http://127.0.0.1:\(bound)/plain")!
    }
}
