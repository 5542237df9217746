import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Downloads and streamed bodies", .serialized)
struct DownloadTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    private func temporaryDownloads() -> Set<String> {
        let names =
            (try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? []
        return Set(names.filter { $0.hasPrefix("gannet-download-") })
    }

    @Test func downloadTaskStreamsToTheDestination() async throws {
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-dest-\(UUID()).bin")
        defer { try? FileManager.default.removeItem(at: destination) }
        let manager = SessionManager()
        let response = await withCheckedContinuation { continuation in
            manager.downloadTask(
                with: URLRequest(url: servers.nginx.adding("/files/10m.bin")),
                destination: { _, _ in destination }
            ) { continuation.resume(returning: $0) }.resume()
        }
        #expect(response.value == destination)
        #expect(response.data == nil)
        let expected = try Data(contentsOf: URL(fileURLWithPath: servers.tenMegabyteFile))
        #expect(try Data(contentsOf: destination) == expected)
    }

    @Test func failedDownloadLeavesNoFile() async throws {
        let before = temporaryDownloads()
        let manager = SessionManager()
        let response = await withCheckedContinuation { continuation in
            manager.downloadTask(with: URLRequest(url: servers.url(.reset))) { continuation.resume(returning: $0) }
                .resume()
        }
        #expect((response.error as? URLError)?.code == .networkConnectionLost)
        // Other suites download at the same time: wait until every file that appeared since has
        // gone, which cannot happen while this download's partial file is kept.
        #expect(
            await eventually(within: 30) { temporaryDownloads().subtracting(before).isEmpty },
            "the partial file must be removed"
        )
    }

    @Test func asyncDownloadReplacesTheTarget() async throws {
        let target = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-async-dest-\(UUID()).bin")
        try Data("old".utf8).write(to: target)
        defer { try? FileManager.default.removeItem(at: target) }
        let (url, response) = try await SessionManager().download(
            for: URLRequest(url: servers.nginx.adding("/files/1m.bin")),
            to: target
        )
        #expect(url == target)
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: target).count == 1024 * 1024)
    }

    @Test func bytesArriveInOrderAndTheEngineWaitsForASlowConsumer() async throws {
        let manager = SessionManager()
        let (response, body) = try await manager.bytes(for: URLRequest(url: servers.nginx.adding("/files/10m.bin")))
        #expect(response.statusCode == 200)
        let task = try #require(manager.tasks.first)
        // Consume nothing for a while: the engine must stop taking bytes from libcurl at the
        // high-water mark (1 MiB) instead of buffering the other 9 MiB.
        try await Task.sleep(for: .milliseconds(500))
        #expect(task.countOfBytesReceived <= (1 << 20) + (1 << 20), "took \(task.countOfBytesReceived) bytes")
        #expect(task.state == .running)
        let expected = try Data(contentsOf: URL(fileURLWithPath: servers.tenMegabyteFile))
        var received = Data()
        for try await chunk in body { received.append(chunk) }
        #expect(received == expected)
    }

    @Test func bytesStreamReportsTransportErrors() async throws {
        let (_, body) = try await SessionManager().bytes(for: URLRequest(url: servers.url(.reset)))
        await #expect(throws: URLError.self) {
            for try await _ in body {}
        }
    }

    @Test func cancellingTheConsumerCancelsTheTransfer() async throws {
        let manager = SessionManager()
        let consumer = Task {
            let (_, body) = try await manager.bytes(for: URLRequest(url: servers.url(.neverEnds)))
            var total = 0
            for try await chunk in body { total += chunk.count }
            return total
        }
        // Cancel once the never-ending body is flowing.
        _ = await eventually(within: 60) { (manager.tasks.first?.countOfBytesReceived ?? 0) > 0 }
        consumer.cancel()
        // The loop ends (by the cancellation error, or by the stream finishing early); what
        // matters is that the never-ending transfer is cancelled and nothing keeps running.
        _ = try? await consumer.value
        _ = await eventually(within: 30) { manager.tasks.isEmpty }
        #expect(manager.tasks.isEmpty)
    }

    @Test func droppingTheStreamCancelsTheTransfer() async throws {
        let manager = SessionManager()
        do {
            let (_, body) = try await manager.bytes(for: URLRequest(url: servers.url(.neverEnds)))
            var iterator = body.makeAsyncIterator()
            _ = try await iterator.next()
        }
        _ = await eventually(within: 30) { manager.tasks.isEmpty }
        #expect(manager.tasks.isEmpty)
    }
}
