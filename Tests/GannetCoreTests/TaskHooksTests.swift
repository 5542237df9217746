import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Tasks, hooks and notifications")
struct TaskHooksTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    @Test func cancelMidBody() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        // 10 bytes, then the rest held until the connection closes (Tests/Servers/held_routes.py):
        // the cancel from the data hook lands mid-body however a loaded machine groups the bytes
        // into reads (a trickle read in one go had no second chunk to cancel on).
        let held = try servers.heldBody(bytes: 1000, prefix: 10)
        defer { try? FileManager.default.removeItem(at: held.file) }
        let received = CallCounter()
        manager.setDataTaskDidReceiveData { _, task, _ in
            received.increment()
            task.cancel()
        }
        let response = await perform(manager, URLRequest(url: servers.url(held.route)))
        #expect((response.error as? URLError)?.code == .cancelled)
        #expect(received.value >= 1)
        try await servers.waitForHeldFile(key: held.key, "the cancelled task's connection to close") {
            $0.requests.count == 1 && $0.requests[0].aborted && $0.requests[0].sent == 10
        }
    }

    @Test func cancelBeforeResumeCompletesOnceWithCancelled() async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        // A held body (Tests/Servers/held_routes.py), whose route records every request it
        // receives: a transfer the resume started despite the cancel would be in its record.
        let held = try servers.heldBody(bytes: 100, prefix: 10)
        defer { try? FileManager.default.removeItem(at: held.file) }
        let completions = CallCounter()
        let response = await withCheckedContinuation { continuation in
            let task = manager.dataTask(with: URLRequest(url: servers.url(held.route)), serializer: .passthrough) {
                completions.increment()
                continuation.resume(returning: $0)
            }
            task.cancel()
            task.resume()
            task.cancel()
        }
        #expect((response.error as? URLError)?.code == .cancelled)
        // The barrier instead of a wait: a later task on the same manager, run to its end. The
        // manager's completion queue is serial, so a second completion that the resume or the
        // second cancel queued would have run before this one's; and the engine starts
        // transfers in order, so a request the resume sent went out before this task's.
        let later = await perform(manager, URLRequest(url: servers.url(.ok)))
        #expect(later.error == nil)
        #expect(completions.value == 1)
        #expect(manager.tasks.isEmpty)
        #expect(try await servers.heldFileStats(key: held.key).requests.isEmpty, "a cancelled task was sent")
    }

    @Test func suspendAndResumeMidBody() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let paused = Mutex<SessionTask?>(nil)
        let suspendReturned = Mutex(false)
        manager.setDataTaskDidReceiveData { _, task, _ in
            let first = paused.withLock { value -> Bool in
                guard value == nil else { return false }
                value = task
                return true
            }
            guard first else { return }
            task.suspend()
            suspendReturned.withLock { $0 = true }
        }
        // 10 bytes, then the rest held until the test releases it (Tests/Servers/held_routes.py):
        // nothing but the suspension can hold back what arrives after the release.
        let held = try servers.heldBody(bytes: 2000, prefix: 10)
        defer { try? FileManager.default.removeItem(at: held.file) }
        async let response = perform(manager, URLRequest(url: servers.url(held.route)))
        #expect(await eventually(within: 60) { suspendReturned.withLock { $0 } })
        let suspended = try #require(paused.withLock { $0 })
        #expect(suspended.state == .suspended)
        // Barriers instead of waits. The engine runs commands in order and each pass of its loop
        // (curl_multi_perform) reads every transfer that is not paused: a later task on the same
        // manager run to its end means the suspension reached the engine, and, once the server
        // has written the rest (it fits in the sockets' buffers), that the engine has read the
        // socket since, had the suspension not held it.
        #expect(await perform(manager, URLRequest(url: servers.url(.ok))).error == nil)
        let countWhileSuspended = suspended.countOfBytesReceived
        #expect(countWhileSuspended > 0 && countWhileSuspended <= 10)
        try await servers.releaseHeldFile(key: held.key)
        try await servers.waitForHeldFile(key: held.key, "the rest written to the socket") {
            $0.requests.first?.completed == true
        }
        #expect(await perform(manager, URLRequest(url: servers.url(.ok))).error == nil)
        #expect(suspended.countOfBytesReceived == countWhileSuspended, "bytes were delivered while suspended")
        #expect(suspended.state == .suspended)
        suspended.resume()
        let result = await response
        #expect(result.error == nil)
        #expect(result.data == held.data)
        #expect(suspended.state == .completed)
    }

    @Test func dispositionCancelStopsBeforeTheBody() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let bodyChunks = CallCounter()
        manager.setDataTaskDidReceiveResponse { _, _, response in
            response.statusCode == 200 ? .cancel : .allow
        }
        manager.setDataTaskDidReceiveData { _, _, _ in bodyChunks.increment() }
        let response = await perform(manager, URLRequest(url: servers.nginx.adding("/files/1m.bin")))
        #expect((response.error as? URLError)?.code == .cancelled)
        #expect(bodyChunks.value == 0)
    }

    @Test func deferredDispositionPausesUntilDecided() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let asked = CallCounter()
        manager.setDataTaskDidReceiveResponse(deferred: { _, _, response, decide in
            asked.increment()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
                decide(response.statusCode == 200 ? .allow : .cancel)
                decide(.cancel)
            }
        })
        let allowed = await perform(manager, URLRequest(url: servers.nginx.adding("/files/1m.bin")))
        #expect(allowed.error == nil)
        #expect(allowed.data?.count == 1024 * 1024)
        let refused = await perform(manager, URLRequest(url: servers.httpbin.adding("/status/404")))
        #expect((refused.error as? URLError)?.code == .cancelled)
        #expect(asked.value == 2)
    }

    @Test func hooksMayCallBackIntoTheManager() async throws {
        // A hook that starts a new task and cancels its own, on the engine thread, must not
        // deadlock: hooks run without engine locks held.
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let nested = Mutex<SessionTask?>(nil)
        let nestedDone = CallCounter()
        manager.setDataTaskDidReceiveResponse { manager, task, _ in
            guard task.originalRequest?.url?.path == "/bytes/1000" else { return .allow }
            let inner = manager.dataTask(
                with: URLRequest(url: self.servers.httpbin.adding("/get")),
                serializer: .passthrough
            ) { _ in
                nestedDone.increment()
            }
            nested.withLock { $0 = inner }
            inner.resume()
            task.cancel()
            _ = manager.tasks
            return .allow
        }
        let response = await perform(manager, URLRequest(url: servers.httpbin.adding("/bytes/1000")))
        #expect((response.error as? URLError)?.code == .cancelled)
        _ = await eventually(within: 30) { nestedDone.value != 0 }
        #expect(nestedDone.value == 1)
    }

    @Test func notificationsArePostedWithTheirUserInfo() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let request = URLRequest(url: servers.httpbin.adding("/get?notify=1"))
        let resumed = CallCounter()
        let completed = Mutex<[String]>([])
        let center = NotificationCenter.default
        let taskBox = Mutex<SessionTask?>(nil)
        let resumeObserver = center.addObserver(forName: .gannetTaskDidResume, object: nil, queue: nil) { note in
            if let task = note.object as? SessionTask, task === taskBox.withLock({ $0 }) { resumed.increment() }
        }
        let completeObserver = center.addObserver(forName: .gannetTaskDidComplete, object: nil, queue: nil) { note in
            guard let task = note.object as? SessionTask, task === taskBox.withLock({ $0 }) else { return }
            completed.withLock { $0 = (note.userInfo ?? [:]).keys.compactMap { $0 as? String }.sorted() }
        }
        defer {
            center.removeObserver(resumeObserver)
            center.removeObserver(completeObserver)
        }
        _ = await withCheckedContinuation { continuation in
            let task = manager.dataTask(with: request, serializer: .passthrough) { continuation.resume(returning: $0) }
            taskBox.withLock { $0 = task }
            task.resume()
        }
        _ = await eventually(within: 30) { !completed.withLock { $0.isEmpty } }
        #expect(resumed.value == 1)
        #expect(
            completed.withLock { $0 }
                == [
                    TaskNotificationKey.metrics, TaskNotificationKey.responseData,
                    TaskNotificationKey.responseSerializer, TaskNotificationKey.serializedResponse,
                ].sorted()
        )
    }

    @Test func completionQueueAndGroupAreHonoured() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let queue = DispatchQueue(label: "gannet.test.completion")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        manager.completionQueue = queue
        let group = DispatchGroup()
        manager.completionGroup = group
        let onQueue = CallCounter()
        let insideGroup = CallCounter()
        let handled = Mutex(0)
        // The group is entered when a response is delivered, as AFNetworking's
        // dispatch_group_async is: waiting on it before then returns at once, so the test waits
        // for the five handlers, and each checks that the group is not empty while it runs.
        await withCheckedContinuation { (allHandled: CheckedContinuation<Void, Never>) in
            for index in 0..<5 {
                let url = servers.nginx.adding("/small?g=\(index)")
                manager.dataTask(with: URLRequest(url: url), serializer: .passthrough) { _ in
                    if DispatchQueue.getSpecific(key: key) == 7 { onQueue.increment() }
                    if group.wait(timeout: .now()) == .timedOut { insideGroup.increment() }
                    if handled.withLock({ count in
                        count += 1
                        return count == 5
                    }) {
                        allHandled.resume()
                    }
                }.resume()
            }
        }
        let waited = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: group.wait(timeout: .now() + 120)) }
        }
        #expect(waited == .success)
        #expect(onQueue.value == 5)
        #expect(insideGroup.value == 5, "a handler ran outside the completion group")
    }

    @Test func taskStateAndCountersAndProgress() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let progressCalls = CallCounter()
        let task = manager.dataTask(
            with: URLRequest(url: servers.nginx.adding("/files/1m.bin")),
            serializer: .passthrough,
            downloadProgress: { _ in progressCalls.increment() },
            completionHandler: { _ in }
        )
        #expect(task.state == .suspended)
        #expect(manager.tasks.contains(task))
        task.resume()
        _ = await eventually(within: 30) { task.state == .completed }
        #expect(task.state == .completed)
        #expect(task.countOfBytesReceived == 1024 * 1024)
        #expect(task.downloadProgress.completedUnitCount == 1024 * 1024)
        #expect(task.downloadProgress.fractionCompleted == 1.0)
        #expect((task.response as? HTTPURLResponse)?.statusCode == 200)
        #expect(progressCalls.value >= 1)
        #expect(!manager.tasks.contains(task))
    }

    @Test func progressCancellationCancelsTheTask() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        // 10 bytes, then the rest held until the connection closes (Tests/Servers/held_routes.py):
        // the cancel comes mid-body whatever the machine's speed, not after a timer.
        let (source, _) = try servers.heldFile(bytes: 1000)
        defer { try? FileManager.default.removeItem(at: source) }
        let url = servers.url(.heldFile(key: UUID().uuidString, file: source, prefix: 10))
        let outcome = Mutex<(done: Bool, code: URLError.Code?)>((false, nil))
        let task = manager.dataTask(with: URLRequest(url: url), serializer: .passthrough) { response in
            outcome.withLock { $0 = (true, (response.error as? URLError)?.code) }
        }
        task.resume()
        #expect(await eventually(within: 60) { task.countOfBytesReceived > 0 })
        task.downloadProgress.cancel()
        #expect(await eventually(within: 60) { outcome.withLock { $0.done } })
        #expect(outcome.withLock { $0.code } == .cancelled)
    }

    @Test func invalidatedManagerRefusesNewTasks() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        manager.invalidateAndCancel()
        #expect(manager.isInvalidated)
        let response = await perform(manager, URLRequest(url: servers.httpbin.adding("/get")))
        #expect(gannetCode(response.error) == .sessionInvalidated)
    }

    @Test func afnetworkingShapedCompletionUsesTheManagersSerializer() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let (status, object, error) = await withCheckedContinuation { continuation in
            manager.dataTask(with: URLRequest(url: servers.nginx.adding("/small"))) { response, object, error in
                continuation.resume(
                    returning: ((response as? HTTPURLResponse)?.statusCode, object as? Data, error.map { "\($0)" })
                )
            }.resume()
        }
        #expect(status == 200)
        #expect(object == Data("ok".utf8))
        #expect(error == nil)
    }
}

@Suite("AFNetworking-shaped completion")
struct AFNetworkingShapeTests {
    struct OptionalLength: ResponseSerializing {
        func serialize(_ input: ResponseInput) throws -> Int? {
            if let error = input.error { throw error }
            guard let data = input.data, !data.isEmpty else { return nil }
            return data.count
        }
    }

    @Test func anOptionalOutputOfNilArrivesAsNil() async throws {
        let servers = try TestServers.shared()
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        manager.responseSerializer = OptionalLength()
        let (empty, full) = await withCheckedContinuation { continuation in
            manager.dataTask(with: URLRequest(url: servers.httpbin.adding("/status/204"))) { _, emptyObject, _ in
                manager.dataTask(with: URLRequest(url: servers.nginx.adding("/small"))) { _, fullObject, _ in
                    continuation.resume(returning: (emptyObject == nil, fullObject as? Int))
                }.resume()
            }.resume()
        }
        #expect(empty)
        #expect(full == 2)
    }
}
