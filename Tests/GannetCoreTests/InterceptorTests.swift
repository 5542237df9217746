import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Records when each attempt starts (adapters run once per attempt) and tags the request.
final class AttemptRecorder: RequestAdapter {
    private let instants = Mutex<[ContinuousClock.Instant]>([])
    func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
        instants.withLock { $0.append(.now) }
        var request = request
        request.setValue("\(task.retryCount)", forHTTPHeaderField: "X-Attempt")
        return request
    }
    var count: Int { instants.withLock { $0.count } }
    /// Seconds between consecutive attempt starts.
    var gaps: [Double] {
        let all = instants.withLock { $0 }
        return zip(all, all.dropFirst()).map { pair in
            let duration = pair.1 - pair.0
            return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }
}

/// The delays the retrier asked for, as `willRetry` reports them: what the policy decided,
/// which the tests bound exactly. The wall time between attempts is bounded only below (the
/// backoff was waited); above, it also holds whatever else the machine ran: beside a benchmark,
/// a CI run once saw 31 s between attempts for a 0.5 s backoff, and a fixed slack above the
/// bound only moves where such a test fails.
final class RetryDelayRecorder: EventMonitor {
    private let recorded = Mutex<[TimeInterval]>([])
    func task(_ task: SessionTask, willRetry attempt: Int, after delay: TimeInterval, failedAttempt: FailedAttempt) {
        recorded.withLock { $0.append(delay) }
    }
    /// The delays, once `count` were reported: a monitor's events arrive on its queue, and the
    /// completion handler may run before the last of them.
    /// Exactly `count`, or the test fails: a loop over fewer would check nothing.
    func delays(count: Int) async -> [TimeInterval] {
        _ = await eventually { self.recorded.withLock { $0.count >= count } }
        let delays = recorded.withLock { $0 }
        #expect(delays.count == count, "willRetry reported \(delays), not \(count) delays")
        return delays
    }
}

/// The fault server's `/flaky` success body.
struct FlakyReport: Decodable {
    let attempts: Int
    let times: [Double]
    let retry_after_dates: [Double]
    var gaps: [Double] { zip(times, times.dropFirst()).map { $1 - $0 } }
}

/// Sends one request through `dataTask(with:serializer:interceptor:)` and returns its task
/// and its single response.
func send(
    _ manager: SessionManager,
    _ request: URLRequest,
    interceptor: (any RequestInterceptor)? = nil
) async -> (SessionTask, DataResponse<Data>) {
    let calls = CallCounter()
    let box = Mutex<SessionTask?>(nil)
    let response: DataResponse<Data> = await withCheckedContinuation { continuation in
        let task = manager.dataTask(with: request, serializer: .passthrough, interceptor: interceptor) { response in
            calls.increment()
            continuation.resume(returning: response)
        }
        box.withLock { $0 = task }
        task.resume()
    }
    #expect(calls.value == 1)
    return (box.withLock { $0! }, response)
}

@Suite("Interceptors: adapt and retry against real servers")
struct InterceptorTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    @Test func httpbin503IsRetriedWithBackoffThenDelivered() async throws {
        let asked = RetryDelayRecorder()
        let manager = SessionManager(eventMonitors: [asked])
        let recorder = AttemptRecorder()
        let policy = RetryPolicy()
        manager.interceptor = Interceptor(adapters: [recorder], retriers: [policy])
        let (task, response) = await send(manager, URLRequest(url: servers.httpbin.adding("/status/503")))
        #expect(response.statusCode == 503, "after the last retry the 503 is delivered")
        #expect(response.error == nil)
        #expect(recorder.count == 3, "one attempt and retryLimit (2) retries")
        #expect(task.retryCount == 2)
        #expect(task.state == .completed)
        #expect(task.lastFailedAttempt?.statusCode == 503)
        let gaps = recorder.gaps
        try #require(gaps.count == 2)
        for (retry, delay) in await asked.delays(count: 2).enumerated() {
            let bounds = policy.delayBounds(forRetry: retry)
            #expect(bounds.contains(delay), "retry \(retry): asked for \(delay) s, bounds \(bounds)")
            #expect(gaps[retry] >= bounds.lowerBound, "retry \(retry): waited \(gaps[retry]) s, bounds \(bounds)")
        }
        #expect(manager.tasks.isEmpty)
    }

    @Test func aRouteFailingTwiceSucceedsOnTheThirdAttempt() async throws {
        let asked = RetryDelayRecorder()
        let manager = SessionManager(eventMonitors: [asked])
        let policy = RetryPolicy()
        manager.interceptor = policy
        let route = FaultRoute.flaky(UUID().uuidString, failures: 2)
        let (task, response) = await send(manager, URLRequest(url: servers.url(route)))
        #expect(response.statusCode == 200)
        let report = try JSONDecoder().decode(FlakyReport.self, from: try #require(response.data))
        #expect(report.attempts == 3)
        #expect(task.retryCount == 2)
        try #require(report.gaps.count == 2)
        for (retry, delay) in await asked.delays(count: 2).enumerated() {
            let bounds = policy.delayBounds(forRetry: retry)
            #expect(bounds.contains(delay), "retry \(retry): asked for \(delay) s, bounds \(bounds)")
            #expect(
                report.gaps[retry] >= bounds.lowerBound,
                "retry \(retry): the server saw \(report.gaps[retry]) s between attempts, bounds \(bounds)"
            )
        }
    }

    @Test func connectionResetsAreRetriedAsURLErrors() async throws {
        let manager = SessionManager()
        let policy = RetryPolicy(exponentialBackoffScale: 0.2)
        manager.interceptor = policy
        let route = FaultRoute.flaky(UUID().uuidString, failures: 2, failure: .reset)
        let (task, response) = await send(manager, URLRequest(url: servers.url(route)))
        #expect(response.statusCode == 200, "\(String(describing: response.error))")
        #expect(task.retryCount == 2)
        let lastError = try #require(task.lastFailedAttempt?.urlErrorCode)
        #expect(policy.retryableURLErrorCodes.contains(lastError))
        let report = try JSONDecoder().decode(FlakyReport.self, from: try #require(response.data))
        #expect(report.attempts == 3)
        for (retry, gap) in report.gaps.enumerated() {
            #expect(gap >= policy.delayBounds(forRetry: retry).lowerBound, "retry \(retry): \(gap) s")
        }
    }

    @Test func retryAfterInSecondsIsHonoured() async throws {
        let asked = RetryDelayRecorder()
        let manager = SessionManager(eventMonitors: [asked])
        manager.interceptor = RetryPolicy()
        let route = FaultRoute.flaky(UUID().uuidString, failures: 1, retryAfter: .seconds(2))
        let (_, response) = await send(manager, URLRequest(url: servers.url(route)))
        #expect(response.statusCode == 200)
        let report = try JSONDecoder().decode(FlakyReport.self, from: try #require(response.data))
        let gap = try #require(report.gaps.first)
        // The backoff alone would have waited at most 0.625 s.
        #expect(gap >= 2, "the server saw the retry \(gap) s after the 503")
        #expect(await asked.delays(count: 1) == [2], "the delay is Retry-After's, not the backoff's")
    }

    @Test func retryAfterAsAnHTTPDateIsHonoured() async throws {
        let asked = RetryDelayRecorder()
        let manager = SessionManager(eventMonitors: [asked])
        manager.interceptor = RetryPolicy()
        let route = FaultRoute.flaky(UUID().uuidString, failures: 1, retryAfter: .date(secondsAhead: 2))
        let (_, response) = await send(manager, URLRequest(url: servers.url(route)))
        #expect(response.statusCode == 200)
        let report = try JSONDecoder().decode(FlakyReport.self, from: try #require(response.data))
        let date = try #require(report.retry_after_dates.first)
        let retriedAt = try #require(report.times.last)
        // Same machine, same clock; HTTP-dates have whole seconds and the server sent a whole second.
        #expect(retriedAt >= date - 0.01, "retried at \(retriedAt), Retry-After said \(date)")
        #expect(try #require(report.gaps.first) >= 1, "the date was at least 2 s after the next whole second")
        // The delay is the date less the moment the retrier decided, so at most the 3 s the
        // date was ahead when the server sent it (2 s after the next whole second); how much
        // less depends on how long the 503 took to reach the retrier. Waiting until the date is
        // proved above, by the server's clock.
        let delay = try #require(await asked.delays(count: 1).first)
        #expect(delay <= 3, "asked for \(delay) s")
    }

    @Test func aPostIsNotRetriedByDefault() async throws {
        let manager = SessionManager()
        let recorder = AttemptRecorder()
        manager.interceptor = Interceptor(adapters: [recorder], retriers: [RetryPolicy()])
        let key = UUID().uuidString
        var post = URLRequest(url: servers.url(.flaky(key, failures: 1)))
        post.httpMethod = "POST"
        post.httpBody = Data("order=1".utf8)
        let (task, response) = await send(manager, post)
        #expect(response.statusCode == 503)
        #expect(task.retryCount == 0)
        #expect(recorder.count == 1)
        // The next request for the key is the server's second: the POST went out once.
        let (_, next) = await send(SessionManager(), URLRequest(url: servers.url(.flaky(key, failures: 1))))
        #expect(try JSONDecoder().decode(FlakyReport.self, from: try #require(next.data)).attempts == 2)
    }

    @Test func aPostIsRetriedWhenThePolicyAllowsIt() async throws {
        let manager = SessionManager()
        manager.interceptor = RetryPolicy(exponentialBackoffScale: 0.1, retryableHTTPMethods: ["POST"])
        var post = URLRequest(url: servers.url(.flaky(UUID().uuidString, failures: 1)))
        post.httpMethod = "POST"
        post.httpBody = Data("order=1".utf8)
        let (task, response) = await send(manager, post)
        #expect(response.statusCode == 200)
        #expect(task.retryCount == 1)
    }

    @Test func aDownloadIsRetriedAndOnlyTheLastBodyIsKept() async throws {
        let manager = SessionManager()
        manager.interceptor = RetryPolicy(exponentialBackoffScale: 0.05)
        let destination = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-retry-\(UUID()).json")
        defer { try? FileManager.default.removeItem(at: destination) }
        let (file, response) = try await manager.download(
            for: URLRequest(url: servers.url(.flaky(UUID().uuidString, failures: 2))),
            to: destination
        )
        #expect(response.statusCode == 200)
        let report = try JSONDecoder().decode(FlakyReport.self, from: try Data(contentsOf: file))
        #expect(report.attempts == 3)
    }

    @Test func theRetryLimitEndsTheAttempts() async throws {
        let recorder = AttemptRecorder()
        let interceptor = Interceptor(
            adapters: [recorder],
            retriers: [RetryPolicy(retryLimit: 3, exponentialBackoffScale: 0.05)]
        )
        let (task, response) = await send(
            SessionManager(),
            URLRequest(url: servers.url(.flaky(UUID().uuidString, failures: 10))),
            interceptor: interceptor
        )
        #expect(response.statusCode == 503)
        #expect(recorder.count == 4)
        #expect(task.retryCount == 3)
    }

    @Test func adaptersRunInOrderManagerFirst() async throws {
        struct Tag: RequestAdapter {
            let name: String
            func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
                var request = request
                let previous = request.value(forHTTPHeaderField: "X-Order").map { $0 + "," } ?? ""
                request.setValue(previous + name, forHTTPHeaderField: "X-Order")
                return request
            }
        }
        let manager = SessionManager()
        manager.interceptor = Interceptor(adapters: [Tag(name: "m1"), Tag(name: "m2")])
        let (task, response) = await send(
            manager,
            URLRequest(url: servers.url(.echo)),
            interceptor: Interceptor(adapters: [Tag(name: "r")])
        )
        let head = String(decoding: try #require(response.data), as: UTF8.self)
        #expect(head.contains("X-Order: m1,m2,r\r\n"), "\(head)")
        #expect(task.currentRequest?.value(forHTTPHeaderField: "X-Order") == "m1,m2,r")
        #expect(task.originalRequest?.value(forHTTPHeaderField: "X-Order") == nil)
    }

    @Test func aFailingAdapterFailsTheTaskBeforeAnythingIsSent() async throws {
        struct Refuse: RequestAdapter {
            struct NoKey: Error {}
            func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest { throw NoKey() }
        }
        let key = UUID().uuidString
        let (task, response) = await send(
            SessionManager(),
            URLRequest(url: servers.url(.flaky(key, failures: 0))),
            interceptor: Interceptor(adapters: [Refuse()])
        )
        let error = try #require(response.error as? GannetError)
        #expect(error.code == .requestAdaptationFailed)
        #expect(error.underlyingError is Refuse.NoKey)
        #expect(task.state == .completed)
        let (_, next) = await send(SessionManager(), URLRequest(url: servers.url(.flaky(key, failures: 0))))
        #expect(
            try JSONDecoder().decode(FlakyReport.self, from: try #require(next.data)).attempts == 1,
            "nothing was sent"
        )
    }

    @Test func aRetrierCanFailTheTaskWithItsOwnError() async throws {
        struct Quota: Error {}
        struct Give: RequestRetrier {
            func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
                .doNotRetryWithError(Quota())
            }
        }
        let (_, response) = await send(
            SessionManager(),
            URLRequest(url: servers.url(.status(500))),
            interceptor: Interceptor(retriers: [Give()])
        )
        let error = try #require(response.error as? GannetError)
        #expect(error.code == .requestRetryFailed)
        #expect(error.underlyingError is Quota)
    }

    @Test func retriersAreAskedInOrderUntilOneDecides() async throws {
        struct Answer: RequestRetrier {
            let result: RetryResult
            let asked: CallCounter
            func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
                asked.increment()
                return attempt.retryCount == 0 ? result : .doNotRetry
            }
        }
        let first = CallCounter()
        let second = CallCounter()
        let third = CallCounter()
        let interceptor = Interceptor(retriers: [
            Answer(result: .doNotRetry, asked: first), Answer(result: .retry, asked: second),
            Answer(result: .retryWithDelay(50), asked: third),
        ])
        let (task, response) = await send(
            SessionManager(),
            URLRequest(url: servers.url(.status(500))),
            interceptor: interceptor
        )
        #expect(response.statusCode == 500)
        #expect(task.retryCount == 1)
        #expect(
            first.value == 2 && second.value == 2 && third.value == 1,
            "the third is asked only after the second said no"
        )
    }

    @Test func successfulResponsesAndClientErrorsReachTheRetrierOnlyWhenFailed() async throws {
        let asked = CallCounter()
        struct Count: RequestRetrier {
            let asked: CallCounter
            func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
                asked.increment()
                return .doNotRetry
            }
        }
        let interceptor = Interceptor(retriers: [Count(asked: asked)])
        _ = await send(SessionManager(), URLRequest(url: servers.url(.ok)), interceptor: interceptor)
        #expect(asked.value == 0)
        _ = await send(SessionManager(), URLRequest(url: servers.url(.status(404))), interceptor: interceptor)
        #expect(asked.value == 1)
    }

    @Test func aStreamedBodyIsNotReplayed() async throws {
        let manager = SessionManager()
        manager.interceptor = RetryPolicy(exponentialBackoffScale: 0.05)
        var put = URLRequest(url: servers.url(.flaky(UUID().uuidString, failures: 1)))
        put.httpMethod = "PUT"
        put.httpBodyStream = InputStream(data: Data(repeating: 7, count: 1000))
        let (_, response) = await send(manager, put)
        let error = try #require(response.error as? GannetError)
        #expect(error.code == .requestRetryFailed)
        #expect(error.message.contains("stream"))
    }

    @Test func cancellingDuringTheRetryDelayEndsTheTaskAtOnce() async throws {
        let decided = CallCounter()
        struct Wait: RequestRetrier {
            let decided: CallCounter
            func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
                decided.increment()
                // An hour: a completion within eventually's wait proves the cancel did not wait
                // for the delay, with no clock in the test.
                return .retryWithDelay(3600)
            }
        }
        let manager = SessionManager()
        let result = Mutex<DataResponse<Data>?>(nil)
        let task = manager.dataTask(
            with: URLRequest(url: servers.url(.status(503))),
            serializer: .passthrough,
            interceptor: Interceptor(retriers: [Wait(decided: decided)])
        ) { response in
            result.withLock { $0 = response }
        }
        task.resume()
        #expect(await eventually { decided.value == 1 })
        task.cancel()
        #expect(await eventually { result.withLock { $0 != nil } }, "the cancel waited for the hour's delay")
        let error = try #require(result.withLock { $0?.error } as? URLError)
        #expect(error.code == .cancelled)
        #expect(task.state == .completed)
        #expect(task.retryCount == 0)
        #expect(await eventually { manager.tasks.isEmpty })
    }

    @Test func cancellingDuringAdaptationEndsTheTaskAndCancelsTheAdapter() async throws {
        let entered = CallCounter()
        let sawCancellation = CallCounter()
        struct Slow: RequestAdapter {
            let entered: CallCounter, sawCancellation: CallCounter
            func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
                entered.increment()
                do {
                    // An hour: only cancellation ends it within the test's wait below.
                    try await Task.sleep(for: .seconds(3_600))
                } catch {
                    sawCancellation.increment()
                    throw error
                }
                return request
            }
        }
        let key = UUID().uuidString
        let finished = Mutex<DataResponse<Data>?>(nil)
        let work = Task {
            let response = await SessionManager().response(
                for: URLRequest(url: servers.url(.flaky(key, failures: 0))),
                serializer: .passthrough,
                interceptor: Interceptor(adapters: [Slow(entered: entered, sawCancellation: sawCancellation)])
            )
            finished.withLock { $0 = response }
        }
        #expect(await eventually { entered.value == 1 })
        work.cancel()
        // The adapter sleeps for an hour: the task ends within the wait only if the cancel
        // reached it. A condition, not a time bound, so a loaded machine cannot fail it.
        #expect(await eventually { finished.withLock { $0 != nil } }, "the cancel waited for the adapter's hour")
        let response = try #require(finished.withLock { $0 })
        #expect((response.error as? URLError)?.code == .cancelled)
        #expect(await eventually { sawCancellation.value == 1 }, "the adapter's Swift task was cancelled")
        let (_, next) = await send(SessionManager(), URLRequest(url: servers.url(.flaky(key, failures: 0))))
        #expect(
            try JSONDecoder().decode(FlakyReport.self, from: try #require(next.data)).attempts == 1,
            "nothing was sent"
        )
    }

    @Test func invalidatingTheManagerDuringARetryDelayCancelsTheTask() async throws {
        struct Signalling: RequestRetrier {
            let decided: CallCounter
            let base: RetryPolicy
            func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
                let result = await base.retry(task, after: attempt)
                decided.increment()
                return result
            }
        }
        let decided = CallCounter()
        let manager = SessionManager()
        manager.interceptor = Interceptor(retriers: [
            Signalling(decided: decided, base: RetryPolicy(exponentialBackoffScale: 30))
        ])
        let result = Mutex<DataResponse<Data>?>(nil)
        let task = manager.dataTask(with: URLRequest(url: servers.url(.status(503))), serializer: .passthrough) {
            response in
            result.withLock { $0 = response }
        }
        task.resume()
        #expect(await eventually { decided.value == 1 })
        manager.invalidateAndCancel()
        #expect(
            await eventually(within: 10) { result.withLock { $0 != nil } },
            "well before the 22.5 s or more of backoff"
        )
        #expect((result.withLock { $0?.error } as? URLError)?.code == .cancelled)
        #expect(task.state == .completed)
    }
}
