import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One test per SessionHooks hook and task notification that had none, each failing when the
/// hook is not called or the notification not posted (the others are listed in
/// docs/core.md, "Hooks").
@Suite("Hooks and notifications, each proven")
struct HookCoverageTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// A serializer the notifications must hand back as it was set, told apart by `mark`.
    struct Marked: ResponseSerializing {
        let mark = UUID()
        var answersNil = false
        var fails = false
        struct Refused: Error {}

        func serialize(_ input: ResponseInput) throws -> Int? {
            if let error = input.error { throw error }
            if fails { throw Refused() }
            return answersNil ? nil : input.data?.count ?? 0
        }
    }

    func recorder(_ token: String) -> TaskNotificationRecorder {
        TaskNotificationRecorder { $0.originalRequest?.url?.absoluteString.contains(token) == true }
    }

    func run<S: ResponseSerializing>(
        _ manager: SessionManager,
        _ url: URL,
        serializer: S
    ) async -> (SessionTask, DataResponse<S.Output>) {
        let box = Mutex<SessionTask?>(nil)
        let response = await withCheckedContinuation { continuation in
            let task = manager.dataTask(with: URLRequest(url: url), serializer: serializer) {
                continuation.resume(returning: $0)
            }
            box.withLock { $0 = task }
            task.resume()
        }
        return (box.withLock { $0! }, response)
    }

    // MARK: Hooks

    @Test func taskDidSendBodyDataReportsEveryByteOfTheBody() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let reports = Mutex<[(task: Int, sent: Int64, total: Int64, expected: Int64)]>([])
        manager.setTaskDidSendBodyData { _, task, sent, total, expected in
            reports.withLock { $0.append((task.taskIdentifier, sent, total, expected)) }
        }
        let body = Data(repeating: 0x61, count: 300_000)
        var request = URLRequest(url: servers.nginx.adding("/upload"))
        request.httpMethod = "POST"
        let box = Mutex<SessionTask?>(nil)
        let response = await withCheckedContinuation { continuation in
            let task = manager.uploadTask(with: request, from: body, serializer: .passthrough) {
                continuation.resume(returning: $0)
            }
            box.withLock { $0 = task }
            task.resume()
        }
        #expect(response.error == nil)
        let task = try #require(box.withLock { $0 })
        let seen = reports.withLock { $0 }
        try #require(!seen.isEmpty, "the hook was never called")
        #expect(seen.allSatisfy { $0.task == task.taskIdentifier })
        #expect(seen.map(\.sent).reduce(0, +) == 300_000)
        #expect(seen.last?.total == 300_000)
        #expect(seen.allSatisfy { $0.expected == 300_000 })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.total < $1.total }, "totals only grow")
    }

    @Test func taskDidCompleteRunsBeforeTheHandlerWithTheOutcome() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let events = Mutex<[String]>([])
        manager.setTaskDidComplete { _, task, error in
            let outcome =
                error == nil ? "ok" : ((error as? URLError)?.code == .networkConnectionLost ? "lost" : "other")
            events.withLock { $0.append("hook \(task.taskIdentifier) \(outcome)") }
        }
        func perform(_ url: URL) async -> SessionTask {
            let box = Mutex<SessionTask?>(nil)
            await withCheckedContinuation { continuation in
                let task = manager.dataTask(with: URLRequest(url: url), serializer: .passthrough) { _ in
                    events.withLock { $0.append("handler \(box.withLock { $0!.taskIdentifier })") }
                    continuation.resume()
                }
                box.withLock { $0 = task }
                task.resume()
            }
            return box.withLock { $0! }
        }
        let succeeded = await perform(servers.nginx.adding("/small"))
        let failed = await perform(servers.url(.reset))
        #expect(
            events.withLock { $0 } == [
                "hook \(succeeded.taskIdentifier) ok", "handler \(succeeded.taskIdentifier)",
                "hook \(failed.taskIdentifier) lost", "handler \(failed.taskIdentifier)",
            ]
        )
    }

    @Test func pausingAndResumingTheProgressSuspendsAndResumesTheTask() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let token = UUID().uuidString
        let notes = recorder(token)
        let firstChunk = Mutex(false)
        manager.setDataTaskDidReceiveData { _, _, _ in firstChunk.withLock { $0 = true } }
        // 10 bytes, then the rest held until the test releases it (Tests/Servers/held_routes.py):
        // the pause lands mid-body however late Foundation runs the Progress's handler (a 2 s
        // trickle was seen to end first on a loaded machine).
        let held = try servers.heldBody(bytes: 200, prefix: 10)
        defer { try? FileManager.default.removeItem(at: held.file) }
        let url = URL(string: servers.url(held.route).absoluteString + "&t=\(token)")!
        let box = Mutex<SessionTask?>(nil)
        let done = Mutex<DataResponse<Data>?>(nil)
        let task = manager.dataTask(with: URLRequest(url: url), serializer: .passthrough) { response in
            done.withLock { $0 = response }
        }
        box.withLock { $0 = task }
        task.resume()
        let deadline = ContinuousClock.now + .seconds(30)
        while !firstChunk.withLock({ $0 }), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        try #require(firstChunk.withLock { $0 })

        // Foundation runs a Progress's handlers asynchronously, on a queue of its own.
        let progress = task.downloadProgress
        progress.pause()
        #expect(progress.isPaused)
        #expect(await eventually { task.state == .suspended }, "Progress.pause() must suspend the task")
        let suspended = await notes.wait(for: .gannetTaskDidSuspend)
        #expect(suspended.count == 1 && suspended.first?.task === task)
        #expect(done.withLock { $0 } == nil)

        progress.resume()
        #expect(await eventually { task.state != .suspended }, "Progress.resume() must resume the task")
        let resumed = await notes.wait(for: .gannetTaskDidResume, count: 2)
        #expect(resumed.count == 2, "one for resume(), one for the progress")
        try await servers.releaseHeldFile(key: held.key)
        let completed = await notes.wait(for: .gannetTaskDidComplete)
        #expect(completed.count == 1)
        let response = try #require(done.withLock { $0 })
        #expect(response.error == nil)
        #expect(response.data == held.data)
    }

    @Test func pausingTheUploadProgressSuspendsTheTaskToo() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let task = manager.dataTask(
            with: URLRequest(url: servers.url(.stall)),
            serializer: .passthrough
        ) { _ in }
        task.resume()
        task.uploadProgress.pause()
        #expect(await eventually { task.state == .suspended })
        task.uploadProgress.resume()
        #expect(await eventually { task.state == .running })
        task.uploadProgress.cancel()
        #expect(await eventually { task.state == .completed })
        #expect((task.error as? URLError)?.code == .cancelled, "\(String(describing: task.error))")
    }

    /// Whether `condition` holds within 30 s: a bound that tells "happened" from "never".
    func eventually(_ condition: @Sendable () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    // MARK: Notifications

    @Test func completionNotificationKeysOnSuccess() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let token = UUID().uuidString
        let notes = recorder(token)
        let serializer = Marked()
        let (task, response) = await run(manager, servers.nginx.adding("/small?t=\(token)"), serializer: serializer)
        #expect(response.value == 2)
        let note = try #require(await notes.wait(for: .gannetTaskDidComplete).first)
        #expect(note.task === task)
        #expect((note.userInfo[TaskNotificationKey.responseSerializer] as? Marked)?.mark == serializer.mark)
        #expect(note.userInfo[TaskNotificationKey.serializedResponse] as? Int == 2)
        #expect(note.userInfo[TaskNotificationKey.responseData] as? Data == Data("ok".utf8))
        #expect(note.userInfo[TaskNotificationKey.metrics] is TaskMetrics)
        #expect(note.userInfo[TaskNotificationKey.error] == nil)
        #expect(note.userInfo[TaskNotificationKey.downloadedFileURL] == nil)
    }

    @Test func aNilValueLeavesTheSerializedResponseKeyOutAndTheSerializerIsTheCallers() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let token = UUID().uuidString
        let notes = recorder(token)
        let serializer = Marked(answersNil: true)
        // The AFNetworking-shaped call wraps the manager's serializer; the key must not show it.
        manager.responseSerializer = serializer
        await withCheckedContinuation { continuation in
            manager.dataTask(with: URLRequest(url: servers.nginx.adding("/small?t=\(token)"))) { _, object, _ in
                #expect(object == nil)
                continuation.resume()
            }.resume()
        }
        let note = try #require(await notes.wait(for: .gannetTaskDidComplete).first)
        #expect(note.userInfo.keys.contains(TaskNotificationKey.serializedResponse) == false)
        #expect((note.userInfo[TaskNotificationKey.responseSerializer] as? Marked)?.mark == serializer.mark)
        #expect(!(note.userInfo[TaskNotificationKey.responseSerializer] is AnyResponseSerializer))
        #expect(note.userInfo[TaskNotificationKey.responseData] as? Data == Data("ok".utf8))
    }

    @Test func completionNotificationKeysOnFailure() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let token = UUID().uuidString
        let notes = recorder(token)

        // A transport failure.
        let serializer = Marked()
        let resetURL = URL(string: servers.url(.reset).absoluteString + "?t=\(token)")!
        let (lost, _) = await run(manager, resetURL, serializer: serializer)
        // A serializer's refusal.
        let refusing = Marked(fails: true)
        let (refused, _) = await run(manager, servers.nginx.adding("/small?t=\(token)"), serializer: refusing)

        let notes2 = await notes.wait(for: .gannetTaskDidComplete, count: 2)
        let transport = try #require(notes2.first { $0.task === lost })
        #expect((transport.userInfo[TaskNotificationKey.error] as? URLError)?.code == .networkConnectionLost)
        #expect((transport.userInfo[TaskNotificationKey.responseSerializer] as? Marked)?.mark == serializer.mark)
        #expect(transport.userInfo[TaskNotificationKey.serializedResponse] == nil)
        #expect(transport.userInfo[TaskNotificationKey.metrics] is TaskMetrics)
        #expect(transport.userInfo[TaskNotificationKey.downloadedFileURL] == nil)

        let serialization = try #require(notes2.first { $0.task === refused })
        #expect(serialization.userInfo[TaskNotificationKey.error] is Marked.Refused)
        #expect((serialization.userInfo[TaskNotificationKey.responseSerializer] as? Marked)?.mark == refusing.mark)
        #expect(serialization.userInfo[TaskNotificationKey.serializedResponse] == nil)
        #expect(serialization.userInfo[TaskNotificationKey.responseData] as? Data == Data("ok".utf8))
    }

    /// The kinds of task AFNetworking's notification tests cover one by one.
    enum TaskKind: String, CaseIterable, Sendable { case data, upload, download }

    @Test(arguments: TaskKind.allCases)
    func suspendAndResumeNotificationsArePostedForEachCall(kind: TaskKind) async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let token = UUID().uuidString
        let notes = recorder(token)
        let request = URLRequest(url: URL(string: servers.url(.stall).absoluteString + "?t=\(token)")!)
        let task: SessionTask
        switch kind {
        case .data: task = manager.dataTask(with: request, serializer: .passthrough) { _ in }
        case .upload:
            task = manager.uploadTask(with: request, from: Data("body".utf8), serializer: .passthrough) { _ in }
        case .download: task = manager.downloadTask(with: request) { _ in }
        }
        task.resume()
        task.suspend()
        task.suspend()  // already suspended: no second notification
        task.resume()
        task.cancel()
        let completed = await notes.wait(for: .gannetTaskDidComplete)
        #expect(completed.count == 1)
        #expect(
            notes.all.map(\.name) == [
                .gannetTaskDidResume, .gannetTaskDidSuspend, .gannetTaskDidResume, .gannetTaskDidComplete,
            ]
        )
        #expect(notes.all.allSatisfy { $0.task === task })
    }

    @Test func aManagerThatDoesNotPostTaskNotificationsPostsNone() async throws {
        var configuration = SessionConfiguration.default
        configuration.postsTaskNotifications = false
        let quiet = SessionManager(configuration: configuration)
        let posting = SessionManager()
        defer {
            quiet.finishTasksAndInvalidate()
            posting.finishTasksAndInvalidate()
        }
        let token = UUID().uuidString
        let notes = recorder(token)
        let url = servers.nginx.adding("/small?t=\(token)")
        let (silent, _) = await run(quiet, url, serializer: .passthrough)
        let (heard, _) = await run(posting, url, serializer: .passthrough)
        // Both completed; the posting manager's notification came, so the quiet one's would have.
        let completed = await notes.wait(for: .gannetTaskDidComplete)
        #expect(completed.map(\.task).contains { $0 === heard })
        #expect(!notes.all.contains { $0.task === silent })
    }

    @Test func everyTaskCarriesTheManagersDescriptionAndOnlyThoseNotifyResume() async throws {
        let manager = SessionManager()
        let other = SessionManager()
        defer {
            manager.finishTasksAndInvalidate()
            other.finishTasksAndInvalidate()
        }
        #expect(manager.taskDescriptionForSessionTasks != other.taskDescriptionForSessionTasks)
        let token = UUID().uuidString
        let notes = recorder(token)
        let url = servers.nginx.adding("/small?t=\(token)")
        let kinds = [
            manager.dataTask(with: URLRequest(url: url), serializer: .passthrough) { _ in },
            manager.uploadTask(with: URLRequest(url: url), from: Data("x".utf8), serializer: .passthrough) { _ in },
            manager.downloadTask(with: URLRequest(url: url)) { _ in },
        ]
        #expect(kinds.allSatisfy { $0.taskDescription == manager.taskDescriptionForSessionTasks })
        let foreign = other.dataTask(with: URLRequest(url: url), serializer: .passthrough) { _ in }
        #expect(foreign.taskDescription == other.taskDescriptionForSessionTasks)
        for task in kinds + [foreign] { task.cancel() }

        // A task whose description was replaced is no longer told apart as the manager's own:
        // as in AFNetworking, it posts no resume (taskDidResume: compares the description) but
        // still posts DidComplete (the task delegate posts it for every task).
        let box = Mutex<SessionTask?>(nil)
        let handlerRan = Mutex(false)
        await withCheckedContinuation { continuation in
            let task = manager.dataTask(with: URLRequest(url: url), serializer: .passthrough) { _ in
                handlerRan.withLock { $0 = true }
                continuation.resume()
            }
            box.withLock { $0 = task }
            task.taskDescription = "mine"
            task.resume()
        }
        let relabelled = try #require(box.withLock { $0 })
        #expect(handlerRan.withLock { $0 })
        let (kept, _) = await run(manager, url, serializer: .passthrough)
        let completed = await notes.wait(for: .gannetTaskDidComplete, count: 6)
        #expect(completed.map(\.task).contains { $0 === kept })
        #expect(completed.map(\.task).contains { $0 === relabelled })
        #expect(notes.records(.gannetTaskDidResume).map(\.task).contains { $0 === kept })
        #expect(!notes.records(.gannetTaskDidResume).contains { $0.task === relabelled })
        #expect(completed.count == 6, "the four cancelled tasks, the relabelled one and the kept one")
    }
}
