import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct BearerCredential: AuthenticationCredential {
    let token: String
    var expired = false
    var requiresRefresh: Bool { expired }
}

/// A real authenticator for the fault server's `/bearer/KEY` (401 unless `Bearer fresh-…`).
/// It counts its refreshes and the 401s it is shown; a refresh can wait until a number of 401s
/// arrived, so a test knows every request was refused before the refresh ends.
final class BearerAuthenticator: Authenticator {
    let refreshes = CallCounter()
    let refusals = CallCounter()
    let refusalsBeforeRefreshEnds: Int
    let refreshFails: Bool
    /// While set, a refresh waits until it is cleared.
    let hold = Mutex(false)

    struct RefreshRefused: Error {}

    init(refusalsBeforeRefreshEnds: Int = 0, refreshFails: Bool = false) {
        self.refusalsBeforeRefreshEnds = refusalsBeforeRefreshEnds
        self.refreshFails = refreshFails
    }

    func apply(_ credential: BearerCredential, to request: inout URLRequest) {
        request.setValue("Bearer \(credential.token)", forHTTPHeaderField: "Authorization")
    }

    func refresh(_ credential: BearerCredential, for manager: SessionManager) async throws -> BearerCredential {
        let number = refreshes.incrementAndGet()
        _ = await eventually(within: 60) { refusals.value >= refusalsBeforeRefreshEnds && !hold.withLock { $0 } }
        if refreshFails { throw RefreshRefused() }
        return BearerCredential(token: "fresh-\(number)")
    }

    func didRequest(
        _ request: URLRequest,
        with response: HTTPURLResponse,
        failDueToAuthenticationError error: (any Error)?
    ) -> Bool {
        guard response.statusCode == 401 else { return false }
        refusals.increment()
        return true
    }
}

extension CallCounter {
    /// Increments and returns the new value.
    func incrementAndGet() -> Int {
        increment()
        return value
    }
}

@Suite("AuthenticationInterceptor: one refresh for many requests")
struct AuthenticationInterceptorTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    struct Counts: Decodable {
        let accepted: Int
        let refused: Int
    }

    func counts(_ key: String) async throws -> Counts {
        let (data, _) = try await SessionManager().data(for: URLRequest(url: servers.url(.bearerCounts(key))))
        return try JSONDecoder().decode(Counts.self, from: data)
    }

    /// Sends `count` requests at once and returns their responses.
    func sendConcurrently(_ count: Int, to url: URL, on manager: SessionManager) async -> [DataResponse<Data>] {
        await withTaskGroup(of: DataResponse<Data>.self) { group in
            for _ in 0..<count {
                group.addTask { await manager.response(for: URLRequest(url: url), serializer: .passthrough) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func fiftyRefusedRequestsShareOneRefreshAndAreAllReplayed() async throws {
        let key = UUID().uuidString
        let authenticator = BearerAuthenticator(refusalsBeforeRefreshEnds: 50)
        let authentication = AuthenticationInterceptor(
            authenticator: authenticator,
            credential: BearerCredential(token: "stale")
        )
        let manager = SessionManager()
        manager.interceptor = authentication
        let responses = await sendConcurrently(50, to: servers.url(.bearer(key)), on: manager)
        #expect(responses.count == 50)
        #expect(responses.allSatisfy { $0.statusCode == 200 }, "\(responses.compactMap(\.error))")
        #expect(responses.allSatisfy { $0.data == Data("Bearer fresh-1".utf8) })
        #expect(authenticator.refreshes.value == 1)
        #expect(authenticator.refusals.value == 50)
        #expect(authentication.credential?.token == "fresh-1")
        let server = try await counts(key)
        #expect(server.refused == 50, "every request went out once with the stale token")
        #expect(server.accepted == 50, "and was replayed once with the fresh one")
    }

    @Test func anExpiredCredentialIsRefreshedOnceBeforeAnythingIsSent() async throws {
        let key = UUID().uuidString
        let authenticator = BearerAuthenticator()
        authenticator.hold.withLock { $0 = true }
        let authentication = AuthenticationInterceptor(
            authenticator: authenticator,
            credential: BearerCredential(token: "old", expired: true)
        )
        let manager = SessionManager()
        manager.interceptor = authentication
        let url = servers.url(.bearer(key))
        async let responses = sendConcurrently(50, to: url, on: manager)
        // Hold the refresh until all 50 tasks exist and wait in their adapter.
        #expect(await eventually { manager.tasks.count == 50 && authenticator.refreshes.value == 1 })
        authenticator.hold.withLock { $0 = false }
        let all = await responses
        #expect(all.allSatisfy { $0.statusCode == 200 })
        #expect(authenticator.refreshes.value == 1)
        let server = try await counts(key)
        #expect(server.refused == 0, "nothing went out with the expired token")
        #expect(server.accepted == 50)
    }

    @Test func aFailedRefreshFailsAllFifty() async throws {
        let key = UUID().uuidString
        let authenticator = BearerAuthenticator(refusalsBeforeRefreshEnds: 50, refreshFails: true)
        let manager = SessionManager()
        manager.interceptor = AuthenticationInterceptor(
            authenticator: authenticator,
            credential: BearerCredential(token: "stale")
        )
        let responses = await sendConcurrently(50, to: servers.url(.bearer(key)), on: manager)
        #expect(responses.count == 50)
        for response in responses {
            let error = try #require(response.error as? GannetError, "\(String(describing: response.error))")
            #expect(error.code == .requestRetryFailed)
            #expect(error.underlyingError is BearerAuthenticator.RefreshRefused)
        }
        #expect(authenticator.refreshes.value == 1)
        let server = try await counts(key)
        #expect(server.refused == 50)
        #expect(server.accepted == 0)
    }

    @Test func aFailedRefreshOfAnExpiredCredentialFailsTheAdaptation() async throws {
        let key = UUID().uuidString
        let authenticator = BearerAuthenticator(refreshFails: true)
        let manager = SessionManager()
        manager.interceptor = AuthenticationInterceptor(
            authenticator: authenticator,
            credential: BearerCredential(token: "old", expired: true)
        )
        let response = await manager.response(for: URLRequest(url: servers.url(.bearer(key))), serializer: .passthrough)
        let error = try #require(response.error as? GannetError)
        #expect(error.code == .requestAdaptationFailed)
        #expect(error.underlyingError is BearerAuthenticator.RefreshRefused)
        let server = try await counts(key)
        #expect(server.refused == 0 && server.accepted == 0, "nothing was sent")
    }

    @Test func withoutACredentialNothingIsSent() async throws {
        let manager = SessionManager()
        manager.interceptor = AuthenticationInterceptor<BearerAuthenticator>(authenticator: BearerAuthenticator())
        let response = await manager.response(
            for: URLRequest(url: servers.url(.bearer(UUID().uuidString))),
            serializer: .passthrough
        )
        let error = try #require(response.error as? GannetError)
        #expect(error.code == .requestAdaptationFailed)
        #expect(error.underlyingError as? AuthenticationError == .missingCredential)
    }

    @Test func aServerRefusingEveryCredentialEndsInExcessiveRefresh() async throws {
        /// Refreshes to a token the server refuses.
        struct Useless: Authenticator {
            let refreshes: CallCounter
            func apply(_ credential: BearerCredential, to request: inout URLRequest) {
                request.setValue("Bearer \(credential.token)", forHTTPHeaderField: "Authorization")
            }
            func refresh(_ credential: BearerCredential, for manager: SessionManager) async throws -> BearerCredential {
                BearerCredential(token: "stale-\(refreshes.incrementAndGet())")
            }
        }
        let refreshes = CallCounter()
        let manager = SessionManager()
        manager.interceptor = AuthenticationInterceptor(
            authenticator: Useless(refreshes: refreshes),
            credential: BearerCredential(token: "stale"),
            refreshWindow: RefreshWindow(interval: 30, maximumAttempts: 3)
        )
        let response = await manager.response(
            for: URLRequest(url: servers.url(.bearer(UUID().uuidString))),
            serializer: .passthrough
        )
        let error = try #require(response.error as? GannetError)
        #expect(error.code == .requestRetryFailed)
        #expect(error.underlyingError as? AuthenticationError == .excessiveRefresh)
        #expect(refreshes.value == 3)
    }

    @Test func cancellingATaskThatWaitsForTheRefreshEndsItAtOnce() async throws {
        let authenticator = BearerAuthenticator()
        authenticator.hold.withLock { $0 = true }
        let manager = SessionManager()
        let authentication = AuthenticationInterceptor(
            authenticator: authenticator,
            credential: BearerCredential(token: "old", expired: true)
        )
        manager.interceptor = authentication
        let url = servers.url(.bearer(UUID().uuidString))
        let ended = Mutex<DataResponse<Data>?>(nil)
        let waiting = Task {
            let response = await manager.response(for: URLRequest(url: url), serializer: .passthrough)
            ended.withLock { $0 = response }
        }
        let other = Task { await manager.response(for: URLRequest(url: url), serializer: .passthrough) }
        #expect(await eventually { authenticator.refreshes.value == 1 && manager.tasks.count == 2 })
        waiting.cancel()
        // The refresh is held until the test lets it go below (or its own minute passes, after
        // which the task would succeed): a task that ends cancelled was ended by the cancel,
        // not by the refresh. A condition, not a time bound, so a loaded machine cannot fail it.
        #expect(await eventually { ended.withLock { $0 != nil } }, "the cancel waited for the refresh")
        let cancelled = try #require(ended.withLock { $0 })
        #expect((cancelled.error as? URLError)?.code == .cancelled)
        authenticator.hold.withLock { $0 = false }
        let served = await other.value
        #expect(served.statusCode == 200, "the refresh went on for the other request")
        #expect(authenticator.refreshes.value == 1)
    }
}

@Suite("AuthenticationInterceptor: a refresh that uses the same manager")
struct AuthenticationRefreshThroughTheManagerTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// Refreshes by asking the fault server's `/flaky` route (through the very manager the
    /// interceptor serves) and turns its answer into a token.
    struct ThroughTheManager: Authenticator {
        let tokenURL: URL
        let refreshes: CallCounter
        func apply(_ credential: BearerCredential, to request: inout URLRequest) {
            request.setValue("Bearer \(credential.token)", forHTTPHeaderField: "Authorization")
        }
        func refresh(_ credential: BearerCredential, for manager: SessionManager) async throws -> BearerCredential {
            refreshes.increment()
            let (data, response) = try await manager.data(for: URLRequest(url: tokenURL))
            guard response.statusCode == 200, data.contains(UInt8(ascii: "{")) else {
                throw URLError(.userAuthenticationRequired)
            }
            return BearerCredential(token: "fresh-from-server")
        }
    }

    @Test func theRefreshRequestBypassesTheInterceptorAndIsRetriedByThePolicy() async throws {
        let refreshes = CallCounter()
        let tokenKey = UUID().uuidString
        // The token endpoint fails once with 503: the RetryPolicy retries it, and that
        // retry's adaptation, outside the refresh's Swift task, must not wait for the refresh.
        let authentication = AuthenticationInterceptor(
            authenticator: ThroughTheManager(
                tokenURL: servers.url(.flaky(tokenKey, failures: 1)),
                refreshes: refreshes
            ),
            credential: BearerCredential(token: "stale")
        )
        let manager = SessionManager()
        manager.interceptor = Interceptor(interceptors: [authentication, RetryPolicy(exponentialBackoffScale: 0.05)])
        let key = UUID().uuidString
        let work = Task {
            await manager.response(for: URLRequest(url: servers.url(.bearer(key))), serializer: .passthrough)
        }
        let finished = await eventually(within: 120) { manager.tasks.isEmpty && refreshes.value == 1 }
        if !finished { work.cancel() }
        let response = await work.value
        #expect(finished, "the refresh waited for itself")
        #expect(response.statusCode == 200, "\(String(describing: response.error))")
        #expect(response.data == Data("Bearer fresh-from-server".utf8))
        #expect(refreshes.value == 1)
        let (data, _) = try await SessionManager().data(
            for: URLRequest(url: servers.url(.flaky(tokenKey, failures: 1)))
        )
        #expect(
            try JSONDecoder().decode(FlakyReport.self, from: data).attempts == 3,
            "the token endpoint saw two attempts before this one"
        )
    }
}
