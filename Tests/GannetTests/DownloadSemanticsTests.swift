import Foundation
import Gannet
import GannetTestSupport
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads judged by the manager's response serializer, placed by the destination hooks,
/// moved without ever deleting a directory or losing the old file, and notified as
/// AFNetworking notifies them (docs/core.md, "Downloads").
@Suite("Downloads fail, land and notify as AFNetworking's")
struct DownloadSemanticsTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    func scratchFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-dlsem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// A recorder of the notifications of the tasks whose URL carries `token`.
    func recorder(_ token: String) -> TaskNotificationRecorder {
        TaskNotificationRecorder { $0.originalRequest?.url?.absoluteString.contains(token) == true }
    }

    /// The nginx 1 MiB file, with a token in the query (nginx ignores it) to find its task.
    func oneMegabyte(_ token: String) -> String {
        URL(string: "/files/1m.bin?token=\(token)", relativeTo: servers.nginx)!.absoluteString
    }

    @Test func aNotFoundDownloadFailsWithNothingAtTheDestinationAndTheBodyInTheError() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("page.html")
        let manager = try makeManager(servers.fault)
        manager.responseSerializer = HTTPResponseSerializer()
        let placed = Mutex(0)
        manager.session.setDownloadTaskDidFinishDownloading { _, _, _ in
            placed.withLock { $0 += 1 }
            return nil
        }
        let url = servers.url(.downloadPage(status: 404, bytes: 200_000)).absoluteString
        let error = try #require(
            await #expect(throws: ResponseSerializationError.self) {
                try await manager.download(url, to: target)
            }
        )
        #expect(error.code == .unacceptableStatusCode)
        #expect(error.statusCode == 404)
        // The error keeps the first 64 KiB of the 200,000-byte error page, as AFNetworking's data key.
        let expected = FaultRoute.downloadPageBody(bytes: 200_000).prefix(64 * 1024)
        #expect(error.data == Data(expected))
        #expect(
            (error as NSError).userInfo[ResponseSerializationError.failingURLResponseDataErrorKey] as? Data
                == Data(expected)
        )
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(placed.withLock { $0 } == 0, "a refused body is never offered a destination")
    }

    @Test func anUnacceptableContentTypeFailsTheDownloadTaskAndItsNotificationSaysWhy() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("1m.bin")
        let token = UUID().uuidString
        let notes = recorder(token)
        // The default JSON serializer refuses application/octet-stream.
        let manager = try makeManager(nil)
        let asked = Mutex(0)
        let response = await withCheckedContinuation { continuation in
            manager.session.downloadTask(
                with: URLRequest(url: URL(string: oneMegabyte(token))!),
                destination: { _, _ in
                    asked.withLock { $0 += 1 }
                    return target
                }
            ) { continuation.resume(returning: $0) }.resume()
        }
        let error = try #require(response.error as? ResponseSerializationError)
        #expect(error.code == .unacceptableContentType)
        #expect(error.data?.count == 64 * 1024)
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(asked.withLock { $0 } == 0)
        let completed = try #require(await notes.wait(for: .gannetTaskDidComplete).first)
        #expect((completed.userInfo[TaskNotificationKey.error] as? ResponseSerializationError)?.code == error.code)
        #expect(completed.userInfo[TaskNotificationKey.responseSerializer] is JSONResponseSerializer)
        #expect(completed.userInfo[TaskNotificationKey.metrics] is TaskMetrics)
        #expect(completed.userInfo[TaskNotificationKey.serializedResponse] == nil)
        #expect(completed.userInfo[TaskNotificationKey.downloadedFileURL] == nil)
        #expect(completed.userInfo[TaskNotificationKey.responseData] == nil)
        #expect(notes.records(.gannetDownloadTaskDidMoveFile).isEmpty)
        #expect(notes.records(.gannetDownloadTaskDidFailToMoveFile).isEmpty)
    }

    @Test func anExistingDirectoryIsNeverReplaced() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = folder.appendingPathComponent("keep")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let inside = directory.appendingPathComponent("inside.txt")
        try Data("precious".utf8).write(to: inside)
        let token = UUID().uuidString
        let notes = recorder(token)
        let manager = try makeManager(nil)
        manager.responseSerializer = HTTPResponseSerializer()

        let viaHTTPManager = try #require(
            await #expect(throws: GannetError.self) {
                try await manager.download(oneMegabyte(token), to: directory)
            }
        )
        #expect(viaHTTPManager.code == .downloadMoveFailed)
        #expect(viaHTTPManager.message.contains("is an existing directory"))
        let viaCore = try #require(
            await #expect(throws: GannetError.self) {
                try await manager.session.download(
                    for: URLRequest(url: URL(string: oneMegabyte(token))!),
                    to: directory
                )
            }
        )
        #expect(viaCore.code == .downloadMoveFailed)

        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) && isDirectory.boolValue
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["inside.txt"])
        #expect(try Data(contentsOf: inside) == Data("precious".utf8))
        let failedMoves = await notes.wait(for: .gannetDownloadTaskDidFailToMoveFile, count: 2)
        #expect(failedMoves.count == 2)
        for note in failedMoves {
            #expect((note.userInfo[TaskNotificationKey.error] as? GannetError)?.code == .downloadMoveFailed)
        }
        #expect(notes.records(.gannetDownloadTaskDidMoveFile).isEmpty)
        let completed = await notes.wait(for: .gannetTaskDidComplete, count: 2)
        #expect(
            completed.allSatisfy {
                ($0.userInfo[TaskNotificationKey.error] as? GannetError)?.code == .downloadMoveFailed
            }
        )
    }

    @Test func anExistingFileSurvivesAFailedReplace() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("report.bin")
        try Data("the old report".utf8).write(to: target)
        let token = UUID().uuidString
        let notes = recorder(token)
        let manager = try makeManager(nil)
        manager.responseSerializer = HTTPResponseSerializer()
        // The downloaded file vanishes before it can be moved (a cleaner swept the temporary
        // folder): the move fails, and it must fail without having touched the old file.
        manager.session.setDownloadTaskDidFinishDownloading { _, _, temporary in
            try? FileManager.default.removeItem(at: temporary)
            return target
        }
        let error = try #require(
            await #expect(throws: GannetError.self) {
                try await manager.download(oneMegabyte(token), to: folder.appendingPathComponent("unused.bin"))
            }
        )
        #expect(error.code == .downloadMoveFailed)
        #expect(try Data(contentsOf: target) == Data("the old report".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.bin"])
        let failed = try #require(await notes.wait(for: .gannetDownloadTaskDidFailToMoveFile).first)
        #expect((failed.userInfo[TaskNotificationKey.error] as? GannetError)?.code == .downloadMoveFailed)
    }

    @Test func aSuccessfulReplaceSwapsTheFileAndNotifiesWithTheFile() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("1m.bin")
        try Data("old".utf8).write(to: target)
        let token = UUID().uuidString
        let notes = recorder(token)
        let manager = try makeManager(nil)
        let serializer = HTTPResponseSerializer()
        manager.responseSerializer = serializer
        let (file, response) = try await manager.download(oneMegabyte(token), to: target)
        #expect(file == target)
        #expect(response.statusCode == 200)
        #expect(try Data(contentsOf: target) == Data(contentsOf: URL(fileURLWithPath: servers.oneMegabyteFile)))

        let moved = try #require(await notes.wait(for: .gannetDownloadTaskDidMoveFile).first)
        #expect(!moved.hadUserInfo, "AFNetworking posts the successful move without a userInfo")
        let completed = try #require(await notes.wait(for: .gannetTaskDidComplete).first)
        #expect(completed.task === moved.task)
        #expect(completed.userInfo[TaskNotificationKey.downloadedFileURL] as? URL == target)
        #expect(completed.userInfo[TaskNotificationKey.serializedResponse] as? URL == target)
        #expect(completed.userInfo[TaskNotificationKey.responseSerializer] is HTTPResponseSerializer)
        #expect(completed.userInfo[TaskNotificationKey.metrics] is TaskMetrics)
        #expect(completed.userInfo[TaskNotificationKey.error] == nil)
        #expect(completed.userInfo[TaskNotificationKey.responseData] == nil, "a download reports its file, not data")
        #expect(notes.records(.gannetDownloadTaskDidFailToMoveFile).isEmpty)
    }

    @Test func aReplaceAcrossFileSystemsIsCopiedBesideTheTargetThenRenamed() async throws {
        // The temporary file is on the temporary folder's file system; /dev/shm is a tmpfs of
        // its own on Linux, so rename(2) there fails with EXDEV and the copy path runs.
        let shm = URL(fileURLWithPath: "/dev/shm")
        var temporaryStatus = stat()
        var shmStatus = stat()
        try #require(stat(FileManager.default.temporaryDirectory.path, &temporaryStatus) == 0)
        try #require(stat(shm.path, &shmStatus) == 0, "this test needs /dev/shm")
        try #require(temporaryStatus.st_dev != shmStatus.st_dev, "/dev/shm must be another file system")
        let folder = shm.appendingPathComponent("gannet-dlsem-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("1m.bin")
        try Data("old".utf8).write(to: target)
        let manager = try makeManager(nil)
        manager.responseSerializer = HTTPResponseSerializer()
        let (file, _) = try await manager.download(oneMegabyte(UUID().uuidString), to: target)
        #expect(file == target)
        #expect(try Data(contentsOf: target) == Data(contentsOf: URL(fileURLWithPath: servers.oneMegabyteFile)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["1m.bin"], "no staging file left")
    }

    @Test func theSessionDestinationHookWinsAndDefersToTheTaskWhenItReturnsNil() async throws {
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let hookTarget = folder.appendingPathComponent("from-hook.bin")
        let taskTarget = folder.appendingPathComponent("from-task.bin")
        let manager = try makeManager(nil)
        manager.responseSerializer = HTTPResponseSerializer()
        let hookCalls = Mutex<[Int]>([])
        let hookSawTheFile = Mutex<[Bool]>([])
        manager.session.setDownloadTaskDidFinishDownloading { _, task, temporary in
            hookCalls.withLock { $0.append(task.taskIdentifier) }
            hookSawTheFile.withLock { $0.append(FileManager.default.fileExists(atPath: temporary.path)) }
            return task.originalRequest?.url?.query?.contains("pick=hook") == true ? hookTarget : nil
        }
        let taskDestinationCalls = Mutex(0)
        func download(_ query: String) async throws -> (SessionTask, DataResponse<URL>) {
            let box = Mutex<SessionTask?>(nil)
            let response = await withCheckedContinuation { continuation in
                let task = manager.session.downloadTask(
                    with: URLRequest(
                        url: URL(string: "/files/1m.bin?\(query)", relativeTo: servers.nginx)!.absoluteURL
                    ),
                    destination: { _, _ in
                        taskDestinationCalls.withLock { $0 += 1 }
                        return taskTarget
                    }
                ) { continuation.resume(returning: $0) }
                box.withLock { $0 = task }
                task.resume()
            }
            return (try #require(box.withLock { $0 }), response)
        }
        let expected = try Data(contentsOf: URL(fileURLWithPath: servers.oneMegabyteFile))

        let (picked, byHook) = try await download("pick=hook")
        #expect(byHook.value == hookTarget)
        #expect(try Data(contentsOf: hookTarget) == expected)
        #expect(!FileManager.default.fileExists(atPath: taskTarget.path))
        #expect(taskDestinationCalls.withLock { $0 } == 0, "the task's destination is not asked when the hook answers")

        let (deferred, byTask) = try await download("pick=task")
        #expect(byTask.value == taskTarget)
        #expect(try Data(contentsOf: taskTarget) == expected)
        #expect(taskDestinationCalls.withLock { $0 } == 1)
        #expect(hookCalls.withLock { $0 } == [picked.taskIdentifier, deferred.taskIdentifier])
        #expect(hookSawTheFile.withLock { $0 } == [true, true], "the hook is given the downloaded file")
    }

    @Test func theCoreManagerValidatesWithItsOwnSerializerToo() async throws {
        // The core's default serializer (passthrough) accepts every response, as URLSession does;
        // one that validates refuses a 404 exactly as the HTTP manager's does.
        let folder = try scratchFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let target = folder.appendingPathComponent("page.html")
        let request = URLRequest(url: servers.url(.downloadPage(status: 404, bytes: 1000)))
        let core = SessionManager()
        defer { core.finishTasksAndInvalidate() }
        let (saved, response) = try await core.download(for: request, to: target)
        #expect(saved == target && response.statusCode == 404)
        #expect(try Data(contentsOf: target) == FaultRoute.downloadPageBody(bytes: 1000))
        try FileManager.default.removeItem(at: target)

        core.responseSerializer = HTTPResponseSerializer()
        let error = try #require(
            await #expect(throws: ResponseSerializationError.self) { try await core.download(for: request, to: target) }
        )
        #expect(error.code == .unacceptableStatusCode)
        #expect(error.data == FaultRoute.downloadPageBody(bytes: 1000))
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }
}
