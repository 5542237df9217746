import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `ResponseDisposition.becomeDownload` against nginx: the same transfer continues into a new
/// download task that takes over the data task's completion and progress handlers.
@Suite("Data tasks that become downloads", .serialized)
struct BecomeDownloadTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// What the hooks and handlers saw, from whichever thread they ran on.
    final class Seen: Sendable {
        struct Values {
            var became: [(data: SessionTask, download: SessionTask, inTable: Bool, dataInTable: Bool)] = []
            var completedTasks: [SessionTask] = []
            var lastProgress: (completed: Int64, total: Int64)?
            var progressCalls = 0
        }
        let values = Mutex(Values())
    }

    /// `sha256sum`'s digest of the file at `path`, run off the test's cooperative pool.
    static func sha256(_ path: String) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    let process = ChildProcess()
                    process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
                    process.arguments = [path]
                    let pipe = Pipe()
                    process.standardOutput = pipe
                    try process.run()
                    let output = pipe.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    let text = String(decoding: output, as: UTF8.self)
                    continuation.resume(returning: String(text.prefix { $0 != " " }))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    private func run(deferred: Bool) async throws {
        let manager = SessionManager()
        let seen = Seen()
        let destination = FileManager.default.temporaryDirectory
            .appendingPathComponent("gannet-became-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: destination) }
        if deferred {
            manager.setDataTaskDidReceiveResponse(deferred: { _, _, _, decide in
                DispatchQueue.global().async { decide(.becomeDownload) }
            })
        } else {
            manager.setDataTaskDidReceiveResponse { _, _, _ in .becomeDownload }
        }
        manager.setDataTaskDidBecomeDownloadTask { manager, dataTask, downloadTask in
            let ids = Set(manager.tasks.map(\.taskIdentifier))
            seen.values.withLock {
                $0.became.append(
                    (
                        dataTask, downloadTask, ids.contains(downloadTask.taskIdentifier),
                        ids.contains(dataTask.taskIdentifier)
                    )
                )
            }
        }
        manager.setDownloadTaskDidFinishDownloading { _, task, _ in
            task.kind == .download ? destination : nil
        }
        manager.setTaskDidComplete { _, task, _ in seen.values.withLock { $0.completedTasks.append(task) } }
        let (dataTask, response) = await withCheckedContinuation { continuation in
            let box = Mutex<SessionTask?>(nil)
            let task = manager.dataTask(
                with: URLRequest(url: servers.nginx.adding("/files/10m.bin")),
                serializer: .passthrough,
                downloadProgress: { progress in
                    seen.values.withLock {
                        $0.progressCalls += 1
                        $0.lastProgress = (progress.completedUnitCount, progress.totalUnitCount)
                    }
                }
            ) { response in
                continuation.resume(returning: (box.withLock { $0 }!, response))
            }
            box.withLock { $0 = task }
            task.resume()
        }
        let values = seen.values.withLock { $0 }
        let size = Int64(10 * 1024 * 1024)

        // The hook fired once, with the data task and a new download task already swapped in.
        try #require(values.became.count == 1)
        let became = values.became[0]
        #expect(became.data === dataTask)
        #expect(became.download !== dataTask)
        #expect(became.download.kind == .download)
        #expect(became.download.taskIdentifier != dataTask.taskIdentifier)
        #expect(became.inTable)
        #expect(!became.dataInTable)

        // The completion belongs to the download task; the data task never completed on its own.
        #expect(values.completedTasks.count == 1)
        #expect(values.completedTasks.first === became.download)
        #expect(dataTask.state == .completed)
        #expect(dataTask.error == nil)
        #expect(dataTask.countOfBytesReceived == 0)
        #expect(became.download.countOfBytesReceived == size)
        #expect(became.download.state == .completed)
        #expect(manager.tasks.isEmpty)

        // Progress was reported to the data task's handler, counting the download's bytes.
        #expect(values.progressCalls > 0)
        #expect(values.lastProgress?.completed == size)
        #expect(values.lastProgress?.total == size)

        // The file went through the session's destination hook, byte for byte.
        #expect(response.error == nil)
        #expect(response.statusCode == 200)
        #expect(response.fileURL == destination)
        #expect(response.data == nil)
        let attributes = try FileManager.default.attributesOfItem(atPath: destination.path)
        #expect((attributes[.size] as? NSNumber)?.int64Value == size)
        let expected = try await Self.sha256(servers.tenMegabyteFile)
        #expect(try await Self.sha256(destination.path) == expected)
    }

    @Test func theDispositionHookTurnsADataTaskIntoADownload() async throws {
        try await run(deferred: false)
    }

    @Test func theDeferredDispositionTurnsADataTaskIntoADownload() async throws {
        try await run(deferred: true)
    }

    @Test func aRejectedResponseFailsTheDownloadAndLeavesNoFile() async throws {
        let manager = SessionManager()
        manager.responseSerializer = RejectingSerializer()
        let destination = FileManager.default.temporaryDirectory
            .appendingPathComponent("gannet-became-\(UUID().uuidString).bin")
        manager.setDataTaskDidReceiveResponse { _, _, _ in .becomeDownload }
        manager.setDownloadTaskDidFinishDownloading { _, _, _ in destination }
        let response = await withCheckedContinuation { continuation in
            manager.dataTask(with: URLRequest(url: servers.nginx.adding("/files/1m.bin")), serializer: .passthrough) {
                continuation.resume(returning: $0)
            }.resume()
        }
        #expect(gannetCode(response.error) == .protocolViolation)
        #expect(response.fileURL == nil)
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }
}

/// A response serializer whose download validation refuses every response, as a status code
/// validator refuses a 404.
struct RejectingSerializer: ResponseSerializing {
    func serialize(_ input: ResponseInput) throws -> Data? {
        if let error = input.error { throw error }
        return input.data
    }

    func validate(_ input: ResponseInput) throws {
        throw GannetError(.protocolViolation, "Refused by the test (\(input.data?.count ?? 0) bytes seen)")
    }
}
