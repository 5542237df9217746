import Foundation
import GannetCore
import GannetOpenAPITransport
import HTTPTypes
import OpenAPIRuntime
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Serialized: the streaming tests read the server's byte counter, which another test's upload
/// would move.
@Suite("A generated OpenAPI client over GannetTransport", .serialized)
struct OpenAPITransportTests {
    let server: TestServer
    init() async throws { server = try await TestServer.shared() }

    @Test func everyOperationGivesTheExpectedResult() async throws {
        let results = try await Results.exercise(TransportKind.gannet.client(server))

        #expect(results.item == .init(id: 3, name: "three", tags: ["red", "large"], note: "item 3 of 4"))
        #expect(results.echoedTag == "tag-3")
        #expect(results.missing == .init(code: 404, message: "no item 999"))
        #expect(results.list.map(\.id) == [1, 3])
        #expect(results.created == .init(id: 106, name: "widget", tags: ["new"]))
        #expect(results.refused == .init(code: 422, message: "a name is required"))
        let streamed = Results.digest(of: Results.streamedUploadSize)
        #expect(results.streamedUpload == .init(length: streamed.length, checksum: streamed.checksum))
        var hello = BlobDigest()
        hello.add(Array("hello".utf8))
        #expect(results.smallUpload == .init(length: 5, checksum: hello.checksum))
        #expect(results.download == Results.digest(of: Int(Results.downloadSize)))
        #expect(results.accept == "application/json")
    }

    @Test(arguments: [TransportKind.gannetBuffered, .asyncHTTPClient, .urlSession])
    func everyOperationGivesTheSameResultAsOverAPeerTransport(_ peer: TransportKind) async throws {
        let gannet = try await Results.exercise(TransportKind.gannet.client(server))
        let other = try await Results.exercise(peer.client(server))
        #expect(gannet == other)
    }

    @Test func aRequestBodyIsSentWhileItIsStillBeingProduced() async throws {
        let probe = server.probe
        probe.resetBytesReceived()
        let firstPart = 1 << 20
        let sawBytesEarly = Locked(false)
        // The second half is produced only once the server has received bytes of the first: a
        // transport that collected the body before sending would wait forever (here: until the
        // wait gives up, and the expectation below fails).
        let stream = AsyncStream<HTTPBody.ByteChunk> { continuation in
            let producer = Task {
                for offset in stride(from: 0, to: firstPart, by: 64 << 10) {
                    continuation.yield(BlobPattern.bytes(at: Int64(offset), count: 64 << 10))
                }
                let early = await eventually(within: 30) { probe.bytesReceived > 0 }
                sawBytesEarly.withLock { $0 = early }
                for offset in stride(from: firstPart, to: 2 * firstPart, by: 64 << 10) {
                    continuation.yield(BlobPattern.bytes(at: Int64(offset), count: 64 << 10))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in producer.cancel() }
        }
        let client = TransportKind.gannet.client(server)

        let digest = try await client.digestBlob(body: .binary(HTTPBody(stream, length: .unknown))).ok.body.json

        #expect(sawBytesEarly.withLock { $0 })
        let expected = Results.digest(of: 2 * firstPart)
        #expect(digest == .init(length: expected.length, checksum: expected.checksum))
    }

    @Test func aResponseBodyIsReadWhileTheServerIsStillWritingIt() async throws {
        let probe = server.probe
        let firstChunkRead = Locked(false)
        let client = TransportKind.gannet.client(server)
        // The server writes 64 KiB and waits for the gate, which opens once the client has read
        // bytes: a transport that waited for the whole body never returns them.
        let reading = Task {
            let body = try await client.downloadBlob(path: .init(size: ServerProbe.gatedDownloadSize)).ok.body.binary
            var digest = BlobDigest()
            for try await chunk in body {
                digest.add(chunk)
                firstChunkRead.withLock { $0 = true }
            }
            return digest
        }
        let readEarly = await eventually(within: 30) { firstChunkRead.withLock { $0 } }
        probe.downloadGate.open()

        #expect(readEarly)
        #expect(try await reading.value == Results.digest(of: Int(ServerProbe.gatedDownloadSize)))
    }

    @Test func cancellingTheSwiftTaskReadingAResponseCancelsTheGannetTask() async throws {
        let manager = SessionManager()
        let client = TransportKind.gannet.client(server, manager: manager)
        let received = Locked(0)
        let reading = Task {
            let body = try await client.downloadBlob(path: .init(size: 1 << 40)).ok.body.binary
            for try await chunk in body { received.withLock { $0 += chunk.count } }
        }
        #expect(await eventually { received.withLock { $0 } > 0 })
        reading.cancel()

        _ = await reading.result
        #expect(await eventually { manager.tasks.isEmpty })
        #expect(received.withLock { $0 } < 1 << 40)
    }

    @Test func cancellingTheSwiftTaskDuringAStreamedUploadCancelsTheGannetTaskAndTheBody() async throws {
        let manager = SessionManager()
        let client = TransportKind.gannet.client(server, manager: manager)
        let probe = server.probe
        probe.resetBytesReceived()
        let bodyEnded = Locked(false)
        // A body that never ends on its own.
        let stream = AsyncStream<HTTPBody.ByteChunk> { continuation in
            continuation.yield(BlobPattern.bytes(at: 0, count: 64 << 10))
            continuation.onTermination = { _ in bodyEnded.withLock { $0 = true } }
        }
        let uploading = Task {
            try await client.digestBlob(body: .binary(HTTPBody(stream, length: .unknown)))
        }
        #expect(await eventually { probe.bytesReceived > 0 })
        uploading.cancel()

        let outcome = await uploading.result
        #expect(throws: (any Error).self) { try outcome.get() }
        #expect(await eventually { manager.tasks.isEmpty })
        #expect(await eventually { bodyEnded.withLock { $0 } })
    }

    @Test func theManagersInterceptorAdaptsEveryOperation() async throws {
        let manager = SessionManager()
        manager.interceptor = HeaderAdapter(name: "X-Adapted", value: "yes")
        let client = TransportKind.gannet.client(server, manager: manager)

        let fields = try await client.echoHeaders().ok.body.json.additionalProperties

        #expect(fields["x-adapted"] == "yes")
    }

    @Test func theManagersSecurityPolicyApplies() async throws {
        // A policy that requires HTTPS (as any pinning policy does) refuses the plain-http
        // server before anything is sent.
        var configuration = SessionConfiguration.default
        configuration.tls.serverTrustEvaluator = RequiresHTTPS()
        let manager = SessionManager(configuration: configuration)
        let client = TransportKind.gannet.client(server, manager: manager)
        let before = server.probe.operations.count

        let error = await #expect(throws: ClientError.self) {
            try await client.getItem(path: .init(id: 1))
        }

        #expect(gannetCode(of: error) == .insecureTransport)
        #expect(server.probe.operations.count == before)
    }

    @Test(arguments: [GannetTransport.Configuration.ResponseBody.streamed, .buffered])
    func theResponseHeadIsTheOneReceived(_ responseBody: GannetTransport.Configuration.ResponseBody) async throws {
        let transport = GannetTransport(manager: SessionManager(), configuration: .init(responseBody: responseBody))
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/cookies")

        let (response, body) = try await transport.send(request, body: nil, baseURL: server.plainURL, operationID: "x")

        #expect(response.status.code == 200)
        #expect(response.headerFields[values: .setCookie] == ["a=1; Path=/", "b=2; Path=/"])
        let data = try await Data(collecting: try #require(body), upTo: 1024)
        #expect(String(decoding: data, as: UTF8.self) == "ok")
    }

    @Test func aBaseURLAndPathThatMakeNoURLAreATypedError() async throws {
        let transport = GannetTransport(manager: SessionManager())
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/items")
        let error = await #expect(throws: GannetError.self) {
            try await transport.send(request, body: nil, baseURL: URL(string: "file:///tmp")!, operationID: "x")
        }
        #expect(error?.code == .invalidRequest)
    }
}

/// Sets one header field on every attempt.
struct HeaderAdapter: RequestInterceptor {
    let name: String
    let value: String

    func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
        var request = request
        request.setValue(value, forHTTPHeaderField: name)
        return request
    }
}

/// Trusts any server, but only over HTTPS.
struct RequiresHTTPS: ServerTrustEvaluating {
    func evaluate(_ trust: ServerTrust) throws {}
    var requiresSecureTransport: Bool { true }
}

/// The code of the `GannetError` in `error`'s chain of underlying errors.
func gannetCode(of error: (any Error)?) -> GannetError.Code? {
    var current = error
    while let error = current {
        if let gannet = error as? GannetError { return gannet.code }
        if let client = error as? ClientError {
            current = client.underlyingError
        } else {
            current = (error as NSError).userInfo[NSUnderlyingErrorKey] as? any Error
        }
    }
    return nil
}

/// Polls `condition` every 10 ms for up to `seconds`: tests wait for a condition, never for a
/// fixed time (as the root suite's Tests/GannetTestSupport/Eventually.swift does).
func eventually(within seconds: Double = 120, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}

/// A value shared between a test and the tasks it starts.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>
    init(_ value: Value) { mutex = Mutex(value) }
    func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result { mutex.withLock { body(&$0) } }
}
