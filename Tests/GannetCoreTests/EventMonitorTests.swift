import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records every event as a short token, per task, checking that each one arrives on the
/// monitor's own queue and never on the engine thread.
final class RecordingMonitor: EventMonitor {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<Int>()
    private let state = Mutex(State())

    struct State {
        var events: [Int: [String]] = [:]
        var bytes: [Int: Int] = [:]
        var wrongPlace = 0
    }

    init(_ label: String) {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }

    /// A task's events, consecutive `data` and `sent` events folded into one.
    func events(of task: SessionTask) -> [String] {
        state.withLock { $0.events[task.taskIdentifier] ?? [] }
    }

    func receivedBytes(of task: SessionTask) -> Int { state.withLock { $0.bytes[task.taskIdentifier] ?? 0 } }
    var deliveriesInTheWrongPlace: Int { state.withLock { $0.wrongPlace } }

    /// Waits (polling, bounded) until the task's last event is `finished` (with or without an error).
    func waitUntilFinished(_ task: SessionTask, within seconds: Double = 30) async -> [String] {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while !(events(of: task).last ?? "").hasPrefix("finished") && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return events(of: task)
    }

    private func record(_ task: SessionTask, _ event: String, bytes: Int = 0) {
        let wrong = DispatchQueue.getSpecific(key: key) != 1 || Thread.current.name == "gannet.engine"
        state.withLock { state in
            if wrong { state.wrongPlace += 1 }
            var events = state.events[task.taskIdentifier] ?? []
            if event == "data" || event == "sent", events.last == event {} else { events.append(event) }
            state.events[task.taskIdentifier] = events
            state.bytes[task.taskIdentifier, default: 0] += bytes
        }
    }

    func task(_ task: SessionTask, didCreateInitialRequest request: URLRequest) { record(task, "created") }
    func task(_ task: SessionTask, didCreateTransferFor request: URLRequest) { record(task, "transfer") }
    func task(_ task: SessionTask, didAdaptInitialRequest initial: URLRequest, to adapted: URLRequest) {
        record(task, "adapted \(adapted.value(forHTTPHeaderField: "X-Attempt-Token") ?? "-")")
    }
    func task(_ task: SessionTask, willRetry attempt: Int, after delay: TimeInterval, failedAttempt: FailedAttempt) {
        record(task, "retry \(attempt) after \(failedAttempt.statusCode ?? 0)")
    }
    func taskDidResume(_ task: SessionTask) { record(task, "resumed") }
    func taskDidSuspend(_ task: SessionTask) { record(task, "suspended") }
    func taskDidCancel(_ task: SessionTask) { record(task, "cancelled") }
    func task(_ task: SessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest: URLRequest) {
        record(task, "redirect \(response.statusCode) \(newRequest.url?.path ?? "")")
    }
    func task(_ task: SessionTask, didReceiveServerTrustChallenge trust: ServerTrust) {
        record(task, "challenge \(trust.host)")
    }
    func task(
        _ task: SessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        record(task, "sent")
    }
    func task(_ task: SessionTask, didReceiveResponse response: HTTPURLResponse) {
        record(task, "response \(response.statusCode)")
    }
    func task(_ task: SessionTask, didReceiveData data: Data) { record(task, "data", bytes: data.count) }
    func task(_ task: SessionTask, didFinishCollecting metrics: TaskMetrics) {
        record(task, "metrics \(metrics.redirectCount)")
    }
    func task<Output: Sendable>(_ task: SessionTask, didSerialize response: DataResponse<Output>) {
        record(task, response.error == nil ? "serialized" : "serialized with error")
    }
    func task(_ task: SessionTask, didFinishWith error: (any Error)?) {
        record(task, error == nil ? "finished" : "finished with error")
    }
}

@Suite("Event monitors")
struct EventMonitorTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// Two monitors, one given at creation and one added afterwards.
    private func monitoredManager(
        configure: (inout SessionConfiguration) -> Void = { _ in }
    ) -> (SessionManager, RecordingMonitor, RecordingMonitor) {
        let first = RecordingMonitor("test.monitor.first")
        let second = RecordingMonitor("test.monitor.second")
        var configuration = SessionConfiguration.default
        configuration.tls.caFile = servers.certificates.caBundle
        configure(&configuration)
        let manager = SessionManager(configuration: configuration, eventMonitors: [first])
        manager.addEventMonitor(second)
        return (manager, first, second)
    }

    private func expectBoth(
        _ monitors: (RecordingMonitor, RecordingMonitor),
        saw expected: [String],
        bytes: Int,
        for task: SessionTask
    ) async {
        for monitor in [monitors.0, monitors.1] {
            let events = await monitor.waitUntilFinished(task)
            #expect(events == expected)
            #expect(monitor.receivedBytes(of: task) == bytes)
            #expect(monitor.deliveriesInTheWrongPlace == 0)
        }
    }

    @Test func dataTaskEventsInOrder() async throws {
        let (manager, first, second) = monitoredManager()
        defer { manager.finishTasksAndInvalidate() }
        #expect(manager.eventMonitors.count == 2)
        let (task, response) = await run {
            manager.dataTask(
                with: URLRequest(url: servers.httpbin.adding("/bytes/3000")),
                serializer: .passthrough,
                completionHandler: $0
            )
        }
        #expect(response.data?.count == 3000)
        await expectBoth(
            (first, second),
            saw: ["created", "resumed", "transfer", "response 200", "data", "metrics 0", "serialized", "finished"],
            bytes: 3000,
            for: task
        )
    }

    /// Adds a header, so that the "adapted" event shows what the adapter did.
    struct TokenAdapter: RequestAdapter {
        func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
            var request = request
            request.setValue("t", forHTTPHeaderField: "X-Attempt-Token")
            return request
        }
    }

    @Test func adaptedAndRetriedTaskEventsInOrder() async throws {
        let (manager, first, second) = monitoredManager()
        defer { manager.finishTasksAndInvalidate() }
        // One 503, then a 200: one retry, adapted again before the second attempt.
        manager.interceptor = Interceptor(
            adapters: [TokenAdapter()],
            retriers: [RetryPolicy(exponentialBackoffScale: 0.01, jitter: 0)]
        )
        let url = servers.url(.flaky(UUID().uuidString, failures: 1))
        let (task, response) = await run {
            manager.dataTask(with: URLRequest(url: url), serializer: .passthrough, completionHandler: $0)
        }
        #expect(response.response?.statusCode == 200)
        #expect(task.retryCount == 1)
        for monitor in [first, second] {
            let events = await monitor.waitUntilFinished(task).filter { $0 != "data" }
            #expect(
                events == [
                    "created", "resumed", "adapted t", "transfer", "response 503", "retry 2 after 503",
                    "adapted t", "transfer", "response 200", "metrics 0", "serialized", "finished",
                ]
            )
            #expect(monitor.deliveriesInTheWrongPlace == 0)
        }
    }

    @Test func uploadTaskEventsInOrder() async throws {
        let (manager, first, second) = monitoredManager()
        defer { manager.finishTasksAndInvalidate() }
        var request = URLRequest(url: servers.nginx.adding("/upload"))
        request.httpMethod = "POST"
        let body = Data(repeating: 0x61, count: 256 * 1024)
        let (task, response) = await run {
            manager.uploadTask(with: request, from: body, serializer: .passthrough, completionHandler: $0)
        }
        #expect(response.response?.statusCode == 200)
        #expect(task.countOfBytesSent == Int64(body.count))
        await expectBoth(
            (first, second),
            saw: [
                "created", "resumed", "transfer", "sent", "response 200", "data", "metrics 0", "serialized", "finished",
            ],
            bytes: response.data?.count ?? -1,
            for: task
        )
    }

    @Test func downloadTaskEventsInOrder() async throws {
        let (manager, first, second) = monitoredManager()
        defer { manager.finishTasksAndInvalidate() }
        let (task, response) = await run {
            manager.downloadTask(with: URLRequest(url: servers.nginx.adding("/files/1m.bin")), completionHandler: $0)
        }
        let file = try #require(response.value)
        defer { try? FileManager.default.removeItem(at: file) }
        await expectBoth(
            (first, second),
            saw: ["created", "resumed", "transfer", "response 200", "data", "metrics 0", "serialized", "finished"],
            bytes: 1024 * 1024,
            for: task
        )
    }

    @Test func redirectedTaskEventsInOrder() async throws {
        let (manager, first, second) = monitoredManager()
        defer { manager.finishTasksAndInvalidate() }
        let (task, response) = await run {
            manager.dataTask(
                with: URLRequest(url: servers.httpbin.adding("/redirect/2")),
                serializer: .passthrough,
                completionHandler: $0
            )
        }
        #expect(response.metrics?.redirectCount == 2)
        await expectBoth(
            (first, second),
            saw: [
                "created", "resumed", "transfer", "redirect 302 /relative-redirect/1", "redirect 302 /get",
                "response 200", "data", "metrics 2", "serialized", "finished",
            ],
            bytes: response.data?.count ?? -1,
            for: task
        )
    }

    @Test func challengeAndFailureEvents() async throws {
        let (manager, first, second) = monitoredManager()
        defer { manager.finishTasksAndInvalidate() }
        manager.setServerTrustChallengeHandler { _, _, _ in .performDefaultHandling }
        let (task, response) = await run {
            manager.dataTask(
                with: URLRequest(url: servers.nginxTLS.adding("/small")),
                serializer: .passthrough,
                completionHandler: $0
            )
        }
        #expect(response.data == Data("ok".utf8))
        await expectBoth(
            (first, second),
            saw: [
                "created", "resumed", "transfer", "challenge localhost", "response 200", "data", "metrics 0",
                "serialized", "finished",
            ],
            bytes: 2,
            for: task
        )

        // A refused connection: no response, and the error reaches the last two events.
        let (refused, failure) = await run {
            manager.dataTask(
                with: URLRequest(url: URL(string: "http://127.0.0.1:1/")!),
                serializer: .passthrough,
                completionHandler: $0
            )
        }
        #expect(failure.error != nil)
        await expectBoth(
            (first, second),
            saw: ["created", "resumed", "transfer", "metrics 0", "serialized with error", "finished with error"],
            bytes: 0,
            for: refused
        )
    }

    @Test func suspendResumeAndCancelEvents() async throws {
        let (manager, first, second) = monitoredManager()
        defer { manager.finishTasksAndInvalidate() }
        // 10 bytes, then the rest held until the connection closes (Tests/Servers/held_routes.py):
        // the transfer cannot end before the cancel, however long a loaded machine pauses here.
        let held = try servers.heldBody(bytes: 1000, prefix: 10)
        defer { try? FileManager.default.removeItem(at: held.file) }
        let task = manager.dataTask(with: URLRequest(url: servers.url(held.route)), serializer: .passthrough) { _ in }
        task.resume()
        task.suspend()
        task.resume()
        task.cancel()
        // The engine may report a response or body bytes in between; the calls made here must
        // arrive in the order they were made.
        let lifecycle: Set = ["created", "resumed", "transfer", "suspended", "cancelled"]
        for monitor in [first, second] {
            let events = await monitor.waitUntilFinished(task)
            #expect(
                events.filter(lifecycle.contains) == [
                    "created", "resumed", "transfer", "suspended", "resumed", "cancelled",
                ]
            )
            #expect(events.suffix(2) == ["serialized with error", "finished with error"])
        }
        // Cancelled before it started: no transfer and no metrics.
        let never = manager.dataTask(with: URLRequest(url: servers.httpbin.adding("/get")), serializer: .passthrough) {
            _ in
        }
        never.cancel()
        #expect(
            await first.waitUntilFinished(never) == [
                "created", "cancelled", "serialized with error", "finished with error",
            ]
        )
    }

    @Test func aMonitorAddedLaterSeesOnlyLaterTasks() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let early = manager.dataTask(with: URLRequest(url: servers.httpbin.adding("/get")), serializer: .passthrough) {
            _ in
        }
        let late = RecordingMonitor("test.monitor.late")
        manager.addEventMonitor(late)
        early.resume()
        let (task, _) = await run {
            manager.dataTask(
                with: URLRequest(url: servers.httpbin.adding("/get")),
                serializer: .passthrough,
                completionHandler: $0
            )
        }
        #expect(await late.waitUntilFinished(task).first == "created")
        #expect(late.events(of: early).isEmpty)
    }

    @Test func aBlockedMonitorDoesNotSlowTheEngine() async throws {
        let blocker = BlockingMonitor()
        let recorder = RecordingMonitor("test.monitor.beside-blocker")
        let manager = SessionManager(eventMonitors: [blocker, recorder])
        defer { manager.finishTasksAndInvalidate() }
        // Should the engine wait for the monitor, the watchdog releases it so that the test
        // fails instead of hanging. What the test asserts does not depend on the bound: each
        // completion handler notes whether the monitor was still blocked when it ran, which is
        // true only if the engine finished the transfer without the monitor.
        DispatchQueue.global().asyncAfter(deadline: .now() + 600) { blocker.release(timedOut: true) }

        // The first event of this task blocks the monitor's queue; it is never resumed.
        let trigger = manager.dataTask(with: URLRequest(url: servers.httpbin.adding("/get")), serializer: .passthrough)
        { _ in }
        defer { trigger.cancel() }
        #expect(await eventually { blocker.isBlocked })

        let blockedAtCompletion = Mutex<[Bool]>([])
        let (first, firstResponse) = await run { done in
            manager.dataTask(
                with: URLRequest(url: servers.httpbin.adding("/bytes/1000")),
                serializer: .passthrough
            ) { response in
                blockedAtCompletion.withLock { $0.append(blocker.isBlocked) }
                done(response)
            }
        }
        #expect(firstResponse.data?.count == 1000)
        // A second transfer, 10 MiB in many chunks, each queued for the blocked monitor.
        let (second, secondResponse) = await run { done in
            manager.downloadTask(with: URLRequest(url: servers.nginx.adding("/files/10m.bin"))) { response in
                blockedAtCompletion.withLock { $0.append(blocker.isBlocked) }
                done(response)
            }
        }
        #expect(
            blockedAtCompletion.withLock { $0 } == [true, true],
            "a transfer finished only after the monitor's release"
        )
        let file = try #require(secondResponse.value)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int == 10 * 1024 * 1024)
        // The other monitor was not held up either.
        #expect(await recorder.waitUntilFinished(second).last == "finished")
        #expect(!blocker.timedOut)

        blocker.release(timedOut: false)
        #expect(await blocker.recorder.waitUntilFinished(first).last == "finished")
        #expect(await blocker.recorder.waitUntilFinished(second).last == "finished")
        #expect(blocker.recorder.receivedBytes(of: second) == 10 * 1024 * 1024)
    }

    @Test func metricsHookOncePerTask() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let collected = Mutex<[Int: [TaskMetrics]]>([:])
        manager.setTaskDidFinishCollectingMetrics { _, task, metrics in
            collected.withLock { $0[task.taskIdentifier, default: []].append(metrics) }
        }
        var responses: [(SessionTask, DataResponse<Data>)] = []
        for path in ["/get", "/redirect/1", "/status/500"] {
            responses.append(
                await run {
                    manager.dataTask(
                        with: URLRequest(url: servers.httpbin.adding(path)),
                        serializer: .passthrough,
                        completionHandler: $0
                    )
                }
            )
        }
        let download = await run {
            manager.downloadTask(with: URLRequest(url: servers.nginx.adding("/files/1m.bin")), completionHandler: $0)
        }
        if let file = download.1.value { try? FileManager.default.removeItem(at: file) }
        let neverStarted = Mutex<SessionTask?>(nil)
        let cancelled = await withCheckedContinuation { continuation in
            let task = manager.dataTask(with: URLRequest(url: servers.httpbin.adding("/get")), serializer: .passthrough)
            { continuation.resume(returning: $0) }
            neverStarted.withLock { $0 = task }
            task.cancel()
        }
        #expect((cancelled.error as? URLError)?.code == .cancelled)
        let never = try #require(neverStarted.withLock { $0 })

        let all = collected.withLock { $0 }
        for (task, response) in responses {
            // Called before the completion handler, so already there.
            #expect(all[task.taskIdentifier] == [try #require(response.metrics)])
        }
        #expect(all[responses[1].0.taskIdentifier]?.first?.redirectCount == 1)
        let downloaded = all[download.0.taskIdentifier]?.first?.countOfResponseBodyBytesReceived
        #expect(downloaded == 1_048_576)
        #expect(all[never.taskIdentifier] == nil)
        #expect(all.count == 4)
    }
}

/// Blocks its queue on the first event until released, then records like ``RecordingMonitor``.
final class BlockingMonitor: EventMonitor {
    let recorder = RecordingMonitor("test.monitor.blocking")
    var queue: DispatchQueue { recorder.queue }
    private let gate = DispatchSemaphore(value: 0)
    private let flags = Mutex((blocked: false, released: false, timedOut: false))

    var isBlocked: Bool { flags.withLock { $0.blocked } }
    var timedOut: Bool { flags.withLock { $0.timedOut } }

    func release(timedOut: Bool) {
        let first = flags.withLock { flags -> Bool in
            guard !flags.released else { return false }
            flags.released = true
            flags.timedOut = timedOut
            return true
        }
        if first { gate.signal() }
    }

    func task(_ task: SessionTask, didCreateInitialRequest request: URLRequest) {
        let first = flags.withLock { flags -> Bool in
            guard !flags.blocked && !flags.released else { return false }
            flags.blocked = true
            return true
        }
        if first {
            gate.wait()
            flags.withLock { $0.blocked = false }
        }
        recorder.task(task, didCreateInitialRequest: request)
    }
    func task(_ task: SessionTask, didCreateTransferFor request: URLRequest) {
        recorder.task(task, didCreateTransferFor: request)
    }
    func taskDidResume(_ task: SessionTask) { recorder.taskDidResume(task) }
    func task(_ task: SessionTask, didReceiveResponse response: HTTPURLResponse) {
        recorder.task(task, didReceiveResponse: response)
    }
    func task(_ task: SessionTask, didReceiveData data: Data) { recorder.task(task, didReceiveData: data) }
    func task(_ task: SessionTask, didFinishCollecting metrics: TaskMetrics) {
        recorder.task(task, didFinishCollecting: metrics)
    }
    func task<Output: Sendable>(_ task: SessionTask, didSerialize response: DataResponse<Output>) {
        recorder.task(task, didSerialize: response)
    }
    func task(_ task: SessionTask, didFinishWith error: (any Error)?) { recorder.task(task, didFinishWith: error) }
}

/// Creates a task with `make`, resumes it and returns it with its response.
func run<Output: Sendable>(
    _ make: (@escaping @Sendable (DataResponse<Output>) -> Void) -> SessionTask
) async -> (SessionTask, DataResponse<Output>) {
    let box = Mutex<SessionTask?>(nil)
    let response = await withCheckedContinuation { continuation in
        let task = make { continuation.resume(returning: $0) }
        box.withLock { $0 = task }
        task.resume()
    }
    return (box.withLock { $0! }, response)
}
