import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FaultsSerialSuites {
    /// SECURITY-CASES 33–35: cancellation at any point, thousands of tasks, invalidation
    /// mid-body, suspension, and cancellation from inside hooks; every task completes once.
    @Suite("Task lifecycle under cancellation, load and invalidation")
    struct LifecycleTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        /// Where a cancellation lands in the life of a task.
        enum CancelPoint: CaseIterable {
            /// Before `resume()`; the task never starts.
            case beforeResume
            /// On the same thread, straight after `resume()`.
            case rightAfterResume
            /// 0–30 ms after `resume()`: connecting, sending, or waiting for the head, which the
            /// server holds back until the connection closes.
            case whileWaiting
            /// 0–60 ms after `resume()` of a body trickling in over ~40 ms: may win or lose.
            case duringBody
            /// From the completion handler, after the task completed.
            case afterCompletion
        }

        /// Counts of outcomes, e.g. `["-1001 timedOut": 3]`, for failure messages.
        static func describe(_ records: [FaultsRecord]) -> [String: Int] {
            var counts: [String: Int] = [:]
            for record in records {
                let key =
                    "\(record.urlErrorCode.map { "\($0.rawValue)" } ?? "success") \(record.gannetCode.map { "\($0)" } ?? "-")"
                counts[key, default: 0] += 1
            }
            return counts
        }

        /// What a task of each point may legitimately end with.
        private func check(_ record: FaultsRecord, at point: CancelPoint, trickle: Data) -> String? {
            guard record.completions == 1 else { return "\(record.completions) completions" }
            switch point {
            case .beforeResume, .rightAfterResume, .whileWaiting:
                // The server answers only after a minute (or never, once the connection closes):
                // the cancellation always comes first, however late a loaded machine runs it.
                return record.urlErrorCode == .cancelled
                    ? nil
                    : "ended \(record.urlErrorCode.map { "\($0.rawValue)" } ?? "successfully") instead of cancelled"
            case .duringBody:
                if record.urlErrorCode == .cancelled { return nil }
                return record.data == trickle
                    ? nil
                    : "neither cancelled nor the whole body (\(record.urlErrorCode.map { "\($0.rawValue)" } ?? "success"), \(record.data?.count ?? -1) bytes)"
            case .afterCompletion:
                return record.data == Data("ok".utf8) ? nil : "a completed task changed its outcome"
            }
        }

        @Test(.tags(.faultsSlow))
        func cancellingAtRandomPointsCompletesEachTaskExactlyOnce() async throws {
            let seed = UInt64.random(in: 0 ... .max)
            var random = FaultsSplitMix(seed: seed)
            let ledger = try await FaultsLedger.begin(servers)
            let trickle = Data(repeating: UInt8(ascii: "d"), count: 8)
            var failures: [String: Int] = [:]
            var perPoint: [CancelPoint: Int] = [:]
            // A head held for a minute, or until the client closes (Tests/Servers/concurrency_routes.py),
            // instead of a second's delay a loaded machine's late timer could outlast.
            let key = UUID().uuidString
            let waiting = servers.url(.concurrencyHold(key: key, milliseconds: 60_000))
            do {
                let manager = ledger.makeManager()
                let urls: [CancelPoint: URL] = [
                    .beforeResume: waiting,
                    .rightAfterResume: waiting,
                    .whileWaiting: waiting,
                    .duringBody: servers.url(.slowBody(bytes: trickle.count, intervalMilliseconds: 5)),
                    .afterCompletion: servers.url(.ok),
                ]
                for _ in 0..<20 {
                    let group = DispatchGroup()
                    var batch: [(CancelPoint, FaultsRecord)] = []
                    for _ in 0..<100 {
                        let point = CancelPoint.allCases.randomElement(using: &random)!
                        let delay = Double(random.next() % 60) / 1000
                        let record = FaultsRecord()
                        let holder = FaultsBox<SessionTask?>(nil)
                        group.enter()
                        let task = manager.dataTask(with: URLRequest(url: urls[point]!), serializer: .passthrough) {
                            response in
                            guard record.record(response) else { return }
                            // Taken out of the holder so the task is released after this call.
                            let task = holder.withLock { held -> SessionTask? in
                                defer { held = nil }
                                return held
                            }
                            if point == .afterCompletion { task?.cancel() }
                            group.leave()
                        }
                        holder.withLock { $0 = task }
                        batch.append((point, record))
                        perPoint[point, default: 0] += 1
                        switch point {
                        case .beforeResume:
                            task.cancel()
                            task.resume()
                        case .rightAfterResume:
                            task.resume()
                            task.cancel()
                        case .whileWaiting:
                            task.resume()
                            DispatchQueue.global().asyncAfter(deadline: .now() + delay / 2) { task.cancel() }
                        case .duringBody:
                            task.resume()
                            DispatchQueue.global().asyncAfter(deadline: .now() + delay) { task.cancel() }
                        case .afterCompletion:
                            task.resume()
                        }
                    }
                    let finished = await Faults.wait(for: group, seconds: 10)
                    #expect(finished, "a batch did not complete within 10 s (seed \(seed))")
                    try await Task.sleep(for: .milliseconds(100))
                    for (point, record) in batch {
                        if let failure = check(record, at: point, trickle: trickle) {
                            failures["\(point): \(failure)", default: 0] += 1
                        }
                    }
                    guard finished else { break }
                }
                manager.invalidateAndCancel()
            }
            #expect(failures.isEmpty, "seed \(seed), per point \(perPoint): \(failures)")
            #expect(perPoint.values.reduce(0, +) == 2000)
            #expect(try await servers.heldRequests(key: key).finished == 0, "a held request was answered")
            await ledger.expectReturned(threadSlack: 4)
        }

        @Test(.tags(.faultsSlow))
        func cancellingFromAnotherThreadWhileResumeRunsStopsTheTransfer() async throws {
            // A second thread cancels the moment it sees the task leave `.suspended`, which is
            // while `resume()` is still handing the task to the engine. The server answers
            // after 60 s; a cancellation that reached the transfer ends the task long before.
            // (With 8 s and a 3 s bound, a loaded machine could not tell a slow cancellation
            // from a lost one; 30 s against 60 s can.)
            let ledger = try await FaultsLedger.begin(servers)
            let total = 300
            do {
                let manager = ledger.makeManager()
                // One finished exchange first, so connections open in parallel (see
                // tasksToANewHTTP1HostDoNotQueueBehindTheFirstResponse).
                #expect(try await Faults.run(manager, URLRequest(url: servers.url(.ok))).error == nil)
                let group = DispatchGroup()
                var records: [FaultsRecord] = []
                for _ in 0..<total {
                    let record = FaultsRecord()
                    records.append(record)
                    group.enter()
                    let task = manager.dataTask(
                        with: URLRequest(url: servers.url(.delay(milliseconds: 60_000))),
                        serializer: .passthrough
                    ) { response in
                        if record.record(response) { group.leave() }
                    }
                    let ready = FaultsCounter()
                    let canceller = Thread {
                        ready.increment()
                        while task.state == .suspended {}
                        task.cancel()
                    }
                    canceller.start()
                    while ready.count == 0 {}
                    task.resume()
                }
                let ended = await Faults.poll(seconds: 30) { records.allSatisfy { $0.completions > 0 } }
                let running = records.filter { $0.completions == 0 }.count
                #expect(
                    ended,
                    "\(running) of \(total) tasks cancelled while resume() ran were still transferring 30 s later"
                )
                manager.invalidateAndCancel()
                #expect(await Faults.wait(for: group, seconds: 10))
                try await Task.sleep(for: .milliseconds(100))
                #expect(records.allSatisfy { $0.completions == 1 })
                let notCancelled = records.filter { $0.urlErrorCode != .cancelled }
                #expect(notCancelled.isEmpty, "\(Self.describe(notCancelled))")
            }
            await ledger.expectReturned()
        }

        @Test(arguments: [true, false])
        func invalidationReleasesAManagerItsOwnHooksRetain(cancelling: Bool) async throws {
            // A hook that uses the manager, as AFNetworking code often does, makes a cycle
            // (manager → hook → manager). Invalidation must break it, as URLSession's does for
            // its delegate; otherwise the engine thread and its pooled connections live forever.
            let ledger = try await FaultsLedger.begin(servers)
            do {
                let manager = ledger.makeManager()
                manager.setDataTaskDidReceiveData { _, _, _ in _ = manager.isInvalidated }
                let outcome = try await Faults.run(manager, URLRequest(url: servers.url(.ok)))
                #expect(outcome.error == nil)
                if cancelling {
                    manager.invalidateAndCancel()
                } else {
                    manager.finishTasksAndInvalidate()
                }
            }
            await ledger.expectReturned()
        }

        @Test(.tags(.faultsSlow))
        func aThousandConcurrentTasksAllCompleteWithBoundedThreadsAndDescriptors() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            let count = 1000
            var peakThreads = 0
            var peakDescriptors = 0
            do {
                let manager = ledger.makeManager()
                let group = DispatchGroup()
                var records: [FaultsRecord] = []
                for _ in 0..<count {
                    let record = FaultsRecord()
                    records.append(record)
                    group.enter()
                    manager.dataTask(
                        with: URLRequest(url: servers.url(.delay(milliseconds: 200))),
                        serializer: .passthrough
                    ) { response in
                        if record.record(response) { group.leave() }
                    }.resume()
                }
                let done = FaultsCounter()
                group.notify(queue: .global()) { done.increment() }
                let deadline = Date().addingTimeInterval(20)
                while done.count == 0 && Date() < deadline {
                    peakThreads = max(peakThreads, FaultsProcess.threadCount())
                    peakDescriptors = max(peakDescriptors, openFileDescriptorCount())
                    try await Task.sleep(for: .milliseconds(5))
                }
                #expect(done.count == 1, "not every task completed within 20 s")
                try await Task.sleep(for: .milliseconds(100))
                #expect(records.filter { $0.completions != 1 }.isEmpty)
                let failed = records.filter { $0.data != Data("ok".utf8) }
                #expect(
                    failed.isEmpty,
                    "\(failed.count) tasks failed, e.g. \(failed.first.map { "\($0.urlErrorCode.map { "\($0.rawValue)" } ?? "-") \(String(describing: $0.gannetCode))" } ?? "")"
                )
                manager.invalidateAndCancel()
            }
            // One engine thread drives every transfer: no thread per task.
            #expect(peakThreads <= ledger.threads + 24, "peak \(peakThreads) threads, baseline \(ledger.threads)")
            // At most one connection per task, plus the engine's own few descriptors.
            #expect(
                peakDescriptors <= ledger.descriptors + count + 32,
                "peak \(peakDescriptors) descriptors, baseline \(ledger.descriptors)"
            )
            await ledger.expectReturned(threadSlack: 4)
        }

        @Test(.tags(.faultsSlow))
        func tasksToANewHTTP1HostDoNotQueueBehindTheFirstResponse() async throws {
            // Twenty requests to a host the manager has no connection to yet, whose answers
            // take 60 s: all twenty must reach the server while the first is still waiting (the
            // 50 s bound only tells "all arrived" from "the rest queued behind the first").
            let ledger = try await FaultsLedger.begin(servers)
            let count = 20
            let marker = Faults.marker()
            do {
                let manager = ledger.makeManager()
                let group = DispatchGroup()
                for _ in 0..<count {
                    group.enter()
                    manager.dataTask(
                        with: URLRequest(url: servers.url(FaultRoute("/delay-ms/60000?\(marker)"))),
                        serializer: .passthrough
                    ) { _ in
                        group.leave()
                    }.resume()
                }
                let arrived = await Faults.poll(seconds: 50) {
                    Faults.faultLogLines(servers, containing: marker).count == count
                }
                #expect(
                    arrived,
                    "after 50 s the server had \(Faults.faultLogLines(servers, containing: marker).count) of \(count) requests; the rest wait for the first exchange to end"
                )
                manager.invalidateAndCancel()
                #expect(await Faults.wait(for: group, seconds: 30))
            }
            await ledger.expectReturned()
        }

        @Test(.tags(.faultsSlow))
        func invalidatingWhileAHundredTasksAreMidBodyCancelsAllAndRefusesNewOnes() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            let marker = Faults.marker()
            // 10 bytes, then the rest held until the connections close (Tests/Servers/held_routes.py):
            // every task is mid-body when the invalidation comes, however slow the machine (a 30 s
            // trickle bet on it).
            let held = try servers.heldBody(bytes: 3000, prefix: 10)
            defer { try? FileManager.default.removeItem(at: held.file) }
            do {
                let manager = ledger.makeManager()
                // One finished exchange first, so the engine knows the host speaks HTTP/1.1 and
                // opens a connection per task (see tasksToANewHTTP1HostDoNotQueueBehindTheFirstResponse).
                let warmUp = try await Faults.run(manager, URLRequest(url: servers.url(.ok)))
                #expect(warmUp.error == nil)
                let receiving = FaultsBox<Set<Int>>([])
                manager.setDataTaskDidReceiveData { _, task, _ in
                    _ = receiving.withLock { $0.insert(task.taskIdentifier) }
                }
                let group = DispatchGroup()
                var records: [FaultsRecord] = []
                for _ in 0..<100 {
                    let record = FaultsRecord()
                    records.append(record)
                    group.enter()
                    manager.dataTask(
                        with: URLRequest(url: servers.url(held.route)),
                        serializer: .passthrough
                    ) { response in
                        if record.record(response) { group.leave() }
                    }.resume()
                }
                let allMidBody = await Faults.poll(seconds: 60) { receiving.current.count == 100 }
                #expect(allMidBody, "only \(receiving.current.count) tasks received body bytes")
                let early = records.filter { $0.completions > 0 }
                #expect(early.isEmpty, "\(early.count) tasks finished before the invalidation: \(Self.describe(early))")

                manager.invalidateAndCancel()
                #expect(await Faults.wait(for: group, seconds: 30), "not every task ended after invalidateAndCancel()")
                try await Task.sleep(for: .milliseconds(100))
                #expect(records.allSatisfy { $0.completions == 1 })
                let notCancelled = records.filter {
                    $0.urlErrorCode != .cancelled || $0.gannetCode != .sessionInvalidated
                }
                #expect(
                    notCancelled.isEmpty,
                    "\(notCancelled.count) tasks did not end cancelled by the invalidation: \(Self.describe(notCancelled))"
                )
                #expect(manager.isInvalidated)
                #expect(manager.tasks.isEmpty)
                try await servers.waitForHeldFile(key: held.key, "every held connection closed") { stats in
                    stats.requests.count == 100 && stats.requests.allSatisfy(\.aborted)
                }

                let refused = try await Faults.run(manager, URLRequest(url: servers.url(FaultRoute("/echo?\(marker)"))))
                Faults.expectFailure(refused, .cancelled, .sessionInvalidated)
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(
                Faults.faultLogLines(servers, containing: marker).isEmpty,
                "a task of an invalidated manager was sent"
            )
            await ledger.expectReturned()
        }

        @Test(.tags(.faultsSlow))
        func suspendingMidBodyOutlastsTheIdleTimeoutAndResumesToTheWholeBody() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            // 10 bytes, then the rest held until the test releases it (Tests/Servers/held_routes.py):
            // the body cannot end before the suspension (a 2 s trickle bet it would not), and
            // what is sent after the release waits in the socket for the suspended task.
            let held = try servers.heldBody(bytes: 200, prefix: 10)
            defer { try? FileManager.default.removeItem(at: held.file) }
            do {
                let manager = ledger.makeManager()
                let log = FaultsCompletionLog<Data>()
                // Suspended at its first bytes, from the data hook: the held body sends nothing
                // more, and a running task would soon be idle for the 1 s timeout.
                let suspendedAt = FaultsBox<Int64?>(nil)
                manager.setDataTaskDidReceiveData { _, task, _ in
                    guard suspendedAt.withLock({ $0 == nil }) else { return }
                    task.suspend()
                    suspendedAt.withLock { $0 = task.countOfBytesReceived }
                }
                var request = URLRequest(url: servers.url(held.route))
                request.timeoutInterval = 1
                let task = manager.dataTask(with: request, serializer: .passthrough) { log.record($0) }
                task.resume()
                #expect(await Faults.poll(seconds: 30) { suspendedAt.withLock { $0 } != nil })
                // Quick toggles, then one suspension longer than the 1 s idle timeout.
                for _ in 0..<5 {
                    task.resume()
                    try await Task.sleep(for: .milliseconds(20))
                    task.suspend()
                }
                #expect(task.state == .suspended)
                // A later task run to its end: the engine runs commands in order, so the
                // suspension has reached it (suspend() returns before the engine pauses).
                #expect(try await Faults.run(manager, URLRequest(url: servers.url(.ok))).error == nil)
                let frozen = task.countOfBytesReceived
                try await servers.releaseHeldFile(key: held.key)
                try await servers.waitForHeldFile(key: held.key, "the rest written to the socket") {
                    $0.requests.first?.completed == true
                }
                // The timer under test: a suspension longer than the 1 s idle timeout, which
                // must not end the task (by design a wait, with 0.3 s of margin past it).
                try await Task.sleep(for: .milliseconds(1300))
                #expect(log.count == 0, "a suspended task completed: \(String(describing: log.first?.error))")
                #expect(task.countOfBytesReceived == frozen, "bytes were delivered while suspended")
                task.resume()
                let response = try #require(await log.wait(seconds: 30))
                try await Task.sleep(for: Faults.settle)
                #expect(log.count == 1)
                #expect(response.value == held.data, "\(String(describing: response.error))")
                #expect(task.state == .completed)
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
        }

        // MARK: Cancelling from inside hooks

        /// Runs one task whose body is held after 10 bytes until the connection closes
        /// (Tests/Servers/held_routes.py): only the hook's cancellation can end it, however fast
        /// or slow the machine (a trickle bet the cancellation would come first).
        private func runCancellingFromHook(_ install: (SessionManager) -> Void) async throws -> FaultsOutcome {
            let ledger = try await FaultsLedger.begin(servers)
            let held = try servers.heldBody(bytes: 1000, prefix: 10)
            defer { try? FileManager.default.removeItem(at: held.file) }
            let outcome: FaultsOutcome
            do {
                let manager = ledger.makeManager()
                install(manager)
                outcome = try await Faults.run(manager, URLRequest(url: servers.url(held.route)), within: 30)
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
            return outcome
        }

        @Test func cancellingFromTheDataHookCompletesOnce() async throws {
            let chunks = FaultsCounter()
            let outcome = try await runCancellingFromHook(
                { manager in
                    manager.setDataTaskDidReceiveData { _, task, _ in
                        if chunks.increment() == 1 { task.cancel() }
                    }
                }
            )
            Faults.expectFailure(outcome, .cancelled, nil)
            #expect(chunks.count >= 1 && chunks.count <= 10)
        }

        @Test func cancellingFromTheResponseHookCompletesOnce() async throws {
            let outcome = try await runCancellingFromHook(
                { manager in
                    manager.setDataTaskDidReceiveResponse { _, task, _ in
                        task.cancel()
                        return .allow
                    }
                }
            )
            Faults.expectFailure(outcome, .cancelled, nil)
        }

        @Test func cancellingFromTheDeferredResponseHookCompletesOnceAndALateDecisionIsIgnored() async throws {
            let decided = FaultsCounter()
            let outcome = try await runCancellingFromHook(
                { manager in
                    manager.setDataTaskDidReceiveResponse(deferred: { _, task, _, decide in
                        task.cancel()
                        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) {
                            decide(.allow)
                            decide(.cancel)
                            decided.increment()
                        }
                    })
                }
            )
            // The late decision's block has run (not a wait of 100 ms against its 20 ms timer).
            #expect(await Faults.poll(seconds: 30) { decided.count == 1 })
            Faults.expectFailure(outcome, .cancelled, nil)
        }

        @Test func aDeferredDecisionThatNeverComesStillEndsOnCancel() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            do {
                let manager = ledger.makeManager()
                let asked = FaultsCounter()
                manager.setDataTaskDidReceiveResponse(deferred: { _, _, _, _ in asked.increment() })
                var request = URLRequest(url: servers.url(.ok))
                // Waiting for a decision is not idleness: the request timeout must not fire.
                // 2 s, so that the head always arrives inside it on a loaded machine (at 0.3 s
                // an engine thread waiting for a core could time the transfer out first).
                request.timeoutInterval = 2
                let log = FaultsCompletionLog<Data>()
                let task = manager.dataTask(with: request, serializer: .passthrough) { log.record($0) }
                task.resume()
                #expect(await eventually { asked.count == 1 })
                // Then longer than the timeout with the decision pending.
                try await Task.sleep(for: .seconds(3))
                #expect(asked.count == 1)
                #expect(
                    log.count == 0,
                    "the task ended while its decision was pending: \(String(describing: log.first?.error))"
                )
                task.cancel()
                let response = try #require(await log.wait(seconds: 30))
                try await Task.sleep(for: Faults.settle)
                #expect(log.count == 1)
                #expect((response.error as? URLError)?.code == .cancelled)
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
        }
    }
}
