import Foundation
import Gannet
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("HTTPSessionManager async/await")
struct AsyncTests {
    let servers: TestServers
    let manager: HTTPSessionManager

    init() throws {
        servers = try TestServers.shared()
        manager = try makeManager(servers.httpbin)
    }

    struct Echo: Decodable, Sendable {
        let args: [String: String]
        let url: String
    }

    /// The async verbs return the `DataResponse` completion handlers get, of a task that
    /// succeeded: request, response, data, value and metrics all there.
    @Test func getReturnsTheWholeResponse() async throws {
        let response = try await manager.get("get", parameters: ["q": "gannet"], headers: ["X-Trace": "1"])
        #expect(response.statusCode == 200)
        #expect(response.error == nil)
        let request = try #require(response.request)
        #expect(request.url?.absoluteString == servers.httpbin.absoluteString + "get?q=gannet")
        #expect(request.value(forHTTPHeaderField: "X-Trace") == "1")
        let httpResponse = try #require(response.response)
        #expect(httpResponse.statusCode == 200)
        #expect(httpResponse.value(forHTTPHeaderField: "content-type") == "application/json")
        #expect(response.headerValue("content-type") == "application/json")
        let data = try #require(response.data)
        #expect(!data.isEmpty)
        let value = try #require(response.value)
        #expect(field(try echo(value), "args", "q") == "gannet")
        #expect(field(try echo(value), "headers", "X-Trace") == "1")
        let metrics = try #require(response.metrics)
        #expect(metrics.countOfResponseBodyBytesReceived == Int64(data.count))
        #expect(try response.decoded(as: Echo.self).args == ["q": "gannet"])
    }

    @Test func typedDecoding() async throws {
        let echo = try await manager.get("get", parameters: ["page": 2], as: Echo.self)
        #expect(echo.args == ["page": "2"])
        #expect(echo.url.hasSuffix("/get?page=2"))
    }

    @Test func typedDecodingOfAnErrorStatusThrows() async throws {
        await #expect { try await manager.get("status/404", as: Echo.self) } throws: {
            ($0 as? ResponseSerializationError)?.code == .unacceptableStatusCode
        }
    }

    @Test func typedDecodingOfTheWrongShapeThrows() async throws {
        struct Wrong: Decodable, Sendable { let missing: Int }
        await #expect { try await manager.get("get", as: Wrong.self) } throws: {
            ($0 as? ResponseSerializationError)?.code == .decodingFailed
        }
    }

    @Test func typedDecodingOfNoContentWithEmpty() async throws {
        #expect(try await manager.delete("status/204", as: Empty.self) == Empty.value)
    }

    @Test func untypedFailuresThrowTheSerializersError() async throws {
        await #expect { try await manager.get("status/500") } throws: {
            ($0 as? ResponseSerializationError)?.statusCode == 500
        }
    }

    @Test func everyVerb() async throws {
        #expect(try await manager.head("get").data?.isEmpty ?? true)
        #expect(field(try echo(try await manager.post("post", parameters: ["k": "post"]).value), "form", "k") == "post")
        #expect(field(try echo(try await manager.put("put", parameters: ["k": "put"]).value), "form", "k") == "put")
        #expect(
            field(try echo(try await manager.patch("patch", parameters: ["k": "patch"]).value), "form", "k") == "patch"
        )
        #expect(
            field(try echo(try await manager.delete("delete", parameters: ["k": "delete"]).value), "args", "k")
                == "delete"
        )
        struct Form: Decodable, Sendable { let form: [String: String] }
        #expect(try await manager.post("post", parameters: ["a": "1"], as: Form.self).form == ["a": "1"])
        #expect(try await manager.put("put", parameters: ["a": "2"], as: Form.self).form == ["a": "2"])
        #expect(try await manager.patch("patch", parameters: ["a": "3"], as: Form.self).form == ["a": "3"])
        #expect(try await manager.delete("delete", parameters: ["a": "4"], as: Echo.self).args == ["a": "4"])
    }

    @Test func multipartPost() async throws {
        let response = try await manager.post("post", parameters: ["title": "Gannets"]) { formData in
            try formData.appendPart(data: Data("dive".utf8), name: "clip", fileName: "clip.txt", mimeType: "text/plain")
        }
        let echo = try echo(response.value)
        #expect(field(echo, "form", "title") == "Gannets")
        #expect(field(echo, "files", "clip") == "dive")
    }

    @Test func requestBuildingErrorsAreThrownBeforeAnythingIsSent() async throws {
        await #expect { try await manager.get("has space") } throws: { gannetCode($0) == .invalidRequest }
        await #expect { try await manager.get("get", headers: ["X": "a\nb"]) } throws: {
            gannetCode($0) == .invalidHeader
        }
        #expect(manager.tasks.isEmpty)
    }

    @Test func cancellingTheSwiftTaskCancelsTheTransfer() async throws {
        // The fault server holds the request two minutes and counts it: the cancel comes once the
        // server has the request (readiness, not a delay), and the server seeing the connection
        // closed proves the transfer, not only the Swift task, was cancelled.
        let manager = try makeManager(servers.fault)
        let key = UUID().uuidString
        let held = servers.url(.concurrencyHold(key: key, milliseconds: 120_000)).absoluteString
        let work = Task { try await manager.get(held) }
        try await servers.waitForHeldRequests(key: key, "the request to arrive") { $0.started == 1 }
        work.cancel()
        await #expect { try await work.value } throws: { ($0 as? URLError)?.code == .cancelled }
        #expect(manager.tasks.isEmpty)
        try await servers.waitForHeldRequests(key: key, "the connection to close") { $0.aborted == 1 }
    }

    @Test func cancellingBeforeTheCallCancelsAtOnce() async throws {
        let work = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await manager.get("delay/10")
        }
        await #expect { try await work.value } throws: { ($0 as? URLError)?.code == .cancelled }
        #expect(manager.tasks.isEmpty)
    }

    @Test func downloadProgressStream() async throws {
        let nginx = try makeManager(servers.nginx)
        nginx.responseSerializer = HTTPResponseSerializer()
        let transfer = nginx.transfer("GET", "files/1m.bin")
        var last: TransferProgress?
        var count = 0
        for try await progress in transfer.downloadProgress {
            if let last { #expect(progress.completedUnitCount >= last.completedUnitCount) }
            last = progress
            count += 1
        }
        #expect(count > 0)
        #expect(last == TransferProgress(completed: 1_048_576, total: 1_048_576))
        #expect(last?.fractionCompleted == 1)
        let response = try await transfer.response
        #expect(response.data == (try Data(contentsOf: URL(fileURLWithPath: servers.oneMegabyteFile))))
    }

    @Test func uploadProgressStream() async throws {
        let nginx = try makeManager(servers.nginx)
        nginx.responseSerializer = HTTPResponseSerializer()
        let payload = Data(repeating: 0x47, count: 2 * 1_048_576)
        let transfer = nginx.multipartTransfer("upload") { formData in
            try formData.appendPart(
                data: payload,
                name: "blob",
                fileName: "blob.bin",
                mimeType: "application/octet-stream"
            )
        }
        var last: TransferProgress?
        for try await progress in transfer.uploadProgress { last = progress }
        let length = try #require(
            Int64(transfer.task?.originalRequest?.value(forHTTPHeaderField: "Content-Length") ?? "")
        )
        #expect(last == TransferProgress(completed: length, total: length))
        #expect(try await transfer.response.statusCode == 200)
    }

    @Test func transferWithARequestBuildingErrorFinishesItsStreamsWithTheError() async throws {
        let transfer = manager.transfer("GET", "bad path")
        #expect(transfer.task == nil)
        await #expect { for try await _ in transfer.downloadProgress {} } throws: { gannetCode($0) == .invalidRequest }
        await #expect { for try await _ in transfer.uploadProgress {} } throws: { gannetCode($0) == .invalidRequest }
        await #expect { try await transfer.response } throws: { gannetCode($0) == .invalidRequest }
    }

    @Test func cancellingAnAwaitedTransferCancelsItAndItsStreams() async throws {
        // The fault server holds the request two minutes, so only the cancellation can end it;
        // the cancel comes once the server has the request.
        let key = UUID().uuidString
        let transfer = manager.transfer(
            "GET",
            servers.url(.concurrencyHold(key: key, milliseconds: 120_000)).absoluteString
        )
        let work = Task { try await transfer.response }
        try await servers.waitForHeldRequests(key: key, "the request to arrive") { $0.started == 1 }
        work.cancel()
        await #expect { try await work.value } throws: { ($0 as? URLError)?.code == .cancelled }
        await #expect { for try await _ in transfer.downloadProgress {} } throws: {
            ($0 as? URLError)?.code == .cancelled
        }
        #expect(transfer.task?.state == .completed)
        // A second await gets the same outcome without a new request.
        await #expect { try await transfer.response } throws: { ($0 as? URLError)?.code == .cancelled }
    }
}

@Suite("HTTPSessionManager streamed bodies")
struct StreamingTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    @Test func bytesArriveInChunksAndAddUpToTheFile() async throws {
        let manager = try makeManager(servers.nginx)
        let (response, body) = try await manager.bytes("files/10m.bin")
        #expect(response.statusCode == 200)
        var total = 0
        var chunks = 0
        var digest = Data()
        for try await chunk in body {
            total += chunk.count
            chunks += 1
            if digest.count < 16 { digest.append(chunk.prefix(16 - digest.count)) }
        }
        #expect(total == 10 * 1_048_576)
        #expect(chunks > 1)
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: servers.tenMegabyteFile))
        defer { try? file.close() }
        #expect(try file.read(upToCount: 16) == digest)
    }

    @Test func bytesWithParametersAndAMethod() async throws {
        let manager = try makeManager(servers.httpbin)
        let (response, body) = try await manager.bytes(
            "anything",
            method: "PATCH",
            parameters: ["k": "v"],
            headers: ["X-Trace": "7"]
        )
        #expect(response.statusCode == 200)
        var data = Data()
        for try await chunk in body { data.append(chunk) }
        let echo = try echo(data)
        #expect(echo["method"] as? String == "PATCH")
        #expect(field(echo, "form", "k") == "v")
        #expect(field(echo, "headers", "X-Trace") == "7")
    }

    @Test func bytesRequestBuildingErrorIsThrown() async throws {
        let manager = try makeManager(servers.httpbin)
        await #expect { _ = try await manager.bytes("bad path") } throws: { gannetCode($0) == .invalidRequest }
    }

    @Test func cancellingWhileIteratingCancelsTheTransfer() async throws {
        // 100 bytes, then the rest held until the connection closes (Tests/Servers/held_routes.py):
        // only the cancellation ends the transfer, however fast the machine.
        let manager = try makeManager(servers.fault)
        let (source, _) = try servers.heldFile(bytes: 600)
        defer { try? FileManager.default.removeItem(at: source) }
        let held: Parameters = ["key": UUID().uuidString, "path": source.path, "prefix": 100]
        let firstByte = AsyncStream<Void>.makeStream()
        let work = Task {
            let (_, body) = try await manager.bytes("held/file", parameters: held)
            var received = 0
            for try await chunk in body {
                received += chunk.count
                firstByte.continuation.yield()
            }
            return received
        }
        // Cancel mid-body: once the first byte has arrived.
        for await _ in firstByte.stream { break }
        work.cancel()
        // A cancelled iteration may end early or throw; either way not all 600 bytes arrive.
        if case .success(let received) = await work.result {
            #expect(received < 600)
        }
        // The transfer ends on the engine thread after the iteration stopped.
        let deadline = ContinuousClock.now + .seconds(20)
        while !manager.tasks.isEmpty, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(manager.tasks.isEmpty)
    }

    @Test func downloadWritesTheFile() async throws {
        let manager = try makeManager(servers.nginx)
        // The default JSON serializer would refuse application/octet-stream (docs/core.md, "Downloads").
        manager.responseSerializer = HTTPResponseSerializer()
        let folder = try temporaryFile(Data()).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("1m.bin")
        let (file, response) = try await manager.download("files/1m.bin", to: target)
        #expect(file == target)
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: target) == Data(contentsOf: URL(fileURLWithPath: servers.oneMegabyteFile)))
    }

    @Test func cancelledDownloadLeavesNoFile() async throws {
        // 100 bytes, then the rest held until the connection closes (Tests/Servers/held_routes.py):
        // the download cannot finish before the cancel, which comes once part of the body is in
        // the temporary file.
        let manager = try makeManager(servers.fault)
        let (source, _) = try servers.heldFile(bytes: 600)
        defer { try? FileManager.default.removeItem(at: source) }
        let held: Parameters = ["key": UUID().uuidString, "path": source.path, "prefix": 100]
        let folder = try temporaryFile(Data()).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("never.bin")
        let work = Task {
            try await manager.download("held/file", parameters: held, to: target)
        }
        #expect(await eventually(within: 60) { (manager.tasks.first?.countOfBytesReceived ?? 0) > 0 })
        work.cancel()
        await #expect { _ = try await work.value } throws: { ($0 as? URLError)?.code == .cancelled }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
