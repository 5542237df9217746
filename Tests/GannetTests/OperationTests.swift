import Foundation
import Gannet
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 13, part B: HTTPRequestOperation on OperationQueue, counted at the fault server's
/// /concurrency routes (Tests/Servers/concurrency_routes.py) and against httpbin.
@Suite("HTTPRequestOperation and OperationQueue")
struct OperationTests {
    let servers: TestServers
    let manager: HTTPSessionManager

    init() throws {
        servers = try TestServers.shared()
        manager = try makeManager(servers.httpbin)
        manager.responseSerializer = HTTPResponseSerializer()
    }

    /// What the fault server saw for one key.
    struct Counts: Decodable, Sendable, Equatable {
        let max: Int
        let in_flight: Int
        let started: Int
        let finished: Int
        let aborted: Int
    }

    func counts(_ key: String) async throws -> Counts {
        let response = try await manager.get(
            servers.url(.concurrencyStats(key: key)).absoluteString,
            serializer: HTTPResponseSerializer()
        )
        return try response.decoded(as: Counts.self)
    }

    /// Polls `condition` until it holds, failing after `seconds` (generous: the machine is loaded).
    func wait(_ what: String, seconds: Double = 60, until condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while try await !condition() {
            guard Date() < deadline else {
                Issue.record("timed out waiting for \(what)")
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    func holdRequest(_ key: String, milliseconds: Int) -> URLRequest {
        URLRequest(url: servers.url(.concurrencyHold(key: key, milliseconds: milliseconds)))
    }

    /// Adds `operations` as a batch and returns once its completion ran.
    func run(_ operations: [Operation], on queue: OperationQueue, progress: (@Sendable (Int, Int) -> Void)? = nil) async
    {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let batch = HTTPRequestOperation.batch(
                of: operations,
                progress: progress,
                completion: { _ in continuation.resume() }
            )
            queue.addOperations(batch, waitUntilFinished: false)
        }
    }

    @Test func maxConcurrentOperationCountBoundsTheTransfersAtTheServer() async throws {
        let key = UUID().uuidString
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        let succeeded = Counter()
        let operations = (0..<10).map { _ in
            manager.operation(for: holdRequest(key, milliseconds: 1000), success: { _, _ in succeeded.increment() })
        }
        await run(operations, on: queue)

        #expect(succeeded.count == 10)
        #expect(operations.allSatisfy { $0.isFinished && !$0.isExecuting && $0.response?.statusCode == 200 })
        let seen = try await counts(key)
        #expect(seen.started == 10)
        #expect(seen.finished == 10)
        #expect(seen.max == 2, "never more than 2 in flight, and the queue did run 2 at once")
    }

    @Test func dependenciesOrderTheTransfers() async throws {
        let key = UUID().uuidString
        let order = Mutex<[Int]>([])
        let operations = (0..<4).map { index in
            manager.operation(
                for: holdRequest(key, milliseconds: 300),
                success: { _, _ in
                    order.withLock { $0.append(index) }
                }
            )
        }
        // 3 after 2 after 1 after 0, added in reverse to a queue that could run all four at once.
        for index in 1..<4 { operations[index].addDependency(operations[index - 1]) }
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        await run(operations.reversed(), on: queue)
        #expect(order.withLock { $0 } == [0, 1, 2, 3])
        // Each request reached the server only after the one before it had finished.
        let seen = try await counts(key)
        #expect(seen.finished == 4)
        #expect(seen.max == 1)
    }

    @Test func cancellingTheQueueCancelsTheTransfers() async throws {
        let key = UUID().uuidString
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 2
        let failures = Mutex<[any Error]>([])
        let operations = (0..<6).map { _ in
            manager.operation(
                for: holdRequest(key, milliseconds: 60_000),
                failure: { _, error in
                    failures.withLock { $0.append(error) }
                }
            )
        }
        let batchDone = Counter()
        for operation in HTTPRequestOperation.batch(of: operations, completion: { _ in batchDone.increment() }) {
            queue.addOperation(operation)
        }

        try await wait("two transfers held at the server") { try await counts(key).in_flight == 2 }
        queue.cancelAllOperations()

        try await wait("every operation to finish") { batchDone.count == 1 }
        #expect(operations.allSatisfy { $0.isFinished && $0.isCancelled })
        let errors = failures.withLock { $0 }
        #expect(errors.count == 6, "every cancelled operation reported, none left unfinished")
        #expect(errors.allSatisfy { ($0 as? URLError)?.code == .cancelled })
        // Every transfer that reached the server was dropped there: none was answered. (The
        // queue may start a queued operation in the moment between cancelling the running ones
        // and cancelling it, so up to all six may have reached the server; each is cancelled.)
        var seen = try await counts(key)
        try await wait("the server to see every transfer it got aborted") {
            seen = try await counts(key)
            return seen.in_flight == 0 && seen.aborted == seen.started
        }
        #expect(seen.started >= 2 && seen.started <= 6)
        #expect(seen.finished == 0)
        #expect(seen.aborted == seen.started)
    }

    @Test func aBatchOfTwentyReportsProgressTwentyTimesAndCompletesOnce() async throws {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 4
        let reports = Mutex<[Int]>([])
        let operations = (0..<20).map { index in
            manager.operation(
                for: URLRequest(
                    url: servers.httpbin.appendingPathComponent("get").appending(queryItems: [
                        .init(name: "n", value: "\(index)")
                    ])
                )
            )
        }
        let completions = Counter()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let batch = HTTPRequestOperation.batch(
                of: operations,
                progress: { finished, total in
                    #expect(total == 20)
                    reports.withLock { $0.append(finished) }
                },
                completion: { finished in
                    completions.increment()
                    #expect(finished.count == 20)
                    continuation.resume()
                }
            )
            #expect(batch.count == 21)
            queue.addOperations(batch, waitUntilFinished: false)
        }
        try await wait("the queue to empty") { queue.operationCount == 0 }
        #expect(reports.withLock { $0 }.sorted() == Array(1...20))
        #expect(completions.count == 1)
        #expect(operations.allSatisfy { $0.error == nil })
    }

    @Test func startedWithoutAQueueAndPausedThenResumed() async throws {
        let key = UUID().uuidString
        let operation = HTTPRequestOperation(request: holdRequest(key, milliseconds: 200), manager: manager)
        operation.pause()
        operation.start()
        #expect(operation.isExecuting && operation.isPaused)
        #expect(operation.task?.state == .suspended, "paused before start: the task waits")
        #expect(try await counts(key).started == 0)
        operation.resume()
        try await wait("the operation to finish") { operation.isFinished }
        #expect(!operation.isExecuting)
        #expect(operation.response?.statusCode == 200)
        #expect(operation.responseObject as? Data == Data("held".utf8))
        #expect(try await counts(key).finished == 1)
    }

    @Test func pausedWhileRunningThenResumed() async throws {
        let key = UUID().uuidString
        // Held a minute at the server, so the transfer is certainly running when paused, however
        // late a loaded machine schedules this test; it ends by cancellation. (Resuming into a
        // completed transfer: startedWithoutAQueueAndPausedThenResumed.)
        let operation = HTTPRequestOperation(request: holdRequest(key, milliseconds: 60_000), manager: manager)
        operation.start()
        try await wait("the request to reach the server") { try await counts(key).in_flight == 1 }
        operation.pause()
        #expect(operation.isPaused && operation.isExecuting)
        #expect(operation.task?.state == .suspended)
        operation.resume()
        #expect(!operation.isPaused && operation.isExecuting)
        #expect(operation.task?.state == .running)
        operation.cancel()
        try await wait("the operation to finish") { operation.isFinished }
        #expect((operation.error as? URLError)?.code == .cancelled)
        try await wait("the server to see the transfer aborted") { try await counts(key).aborted == 1 }
    }

    @Test func aFinishedOperationIsFreed() async throws {
        let key = UUID().uuidString
        weak var released: HTTPRequestOperation?
        do {
            let operation = HTTPRequestOperation(request: holdRequest(key, milliseconds: 10), manager: manager)
            released = operation
            operation.start()
            try await wait("the operation to finish") { operation.isFinished }
        }
        // The task's completion handler no longer holds the operation once it ran.
        try await wait("the operation to be freed") { released == nil }
    }

    @Test func cancelledBeforeItStartsItFinishesWithoutSending() async throws {
        let key = UUID().uuidString
        let failed = Counter()
        let operation = manager.operation(
            for: holdRequest(key, milliseconds: 100),
            failure: { _, _ in failed.increment() }
        )
        operation.cancel()
        let queue = OperationQueue()
        queue.addOperation(operation)
        try await wait("the cancelled operation to finish") { operation.isFinished && failed.count == 1 }
        #expect((operation.error as? URLError)?.code == .cancelled)
        #expect(try await counts(key).started == 0)
    }
}
