internal import Synchronization

/// Applies a credential to every request and refreshes it once when it expires or the server
/// refuses it, holding the requests that arrive during the refresh and replaying them after.
///
/// - Adapting: a valid credential is applied at once. One that ``AuthenticationCredential/requiresRefresh``
///   starts a refresh; the request waits for it, and so does every request adapted meanwhile.
/// - Retrying: a response the authenticator calls an authentication failure (401 by default)
///   starts a refresh, unless the request went out with an older credential than the current
///   one (it is then replayed at once) or a refresh is already running (it waits for that one).
///   When the refresh succeeds, every waiting request is adapted again with the new credential
///   and sent; when it fails, every one fails with `GannetError(.requestAdaptationFailed)` or
///   `(.requestRetryFailed)` whose `underlyingError` is the refresh's error.
/// - More than ``RefreshWindow/maximumAttempts`` refreshes within ``RefreshWindow/interval``
///   fail with ``AuthenticationError/excessiveRefresh`` instead of refreshing forever.
///
/// Cancelling a waiting task ends it at once; the refresh goes on for the others.
/// See docs/interceptors.md.
///
/// ```swift
/// let auth = AuthenticationInterceptor(authenticator: OAuthAuthenticator(), credential: stored)
/// manager.interceptor = auth
/// ```
public final class AuthenticationInterceptor<AuthenticatorType: Authenticator>: RequestInterceptor {
    /// The credential type of the authenticator.
    public typealias Credential = AuthenticatorType.Credential

    /// Applies and refreshes the credential.
    public let authenticator: AuthenticatorType
    /// How many refreshes may happen how quickly.
    public let refreshWindow: RefreshWindow
    private let state: Mutex<State>

    private struct State {
        var credential: Credential?
        var isRefreshing = false
        var refreshStarts: [UInt64] = []
        var nextWaiter = 0
        /// Waiters given an identifier that have not registered their continuation yet.
        var unregistered = Set<Int>()
        /// Unregistered waiters whose Swift task was cancelled.
        var abandoned = Set<Int>()
        var waiters: [Int: CheckedContinuation<Result<Credential, any Error>, Never>] = [:]
        /// Tasks the running refresh sent itself (through a manager this interceptor serves).
        var refreshTasks = Set<Int>()
    }

    /// What a request does next, decided under the lock.
    private enum Decision {
        case ready(Result<Credential, any Error>)
        case wait
        case waitAndRefresh(Credential)
    }

    /// Creates an interceptor; without a credential, requests fail with
    /// ``AuthenticationError/missingCredential`` until one is set.
    public init(
        authenticator: AuthenticatorType,
        credential: Credential? = nil,
        refreshWindow: RefreshWindow = RefreshWindow()
    ) {
        self.authenticator = authenticator
        self.refreshWindow = refreshWindow
        state = Mutex(State(credential: credential))
    }

    /// The credential applied to requests; setting it (after a login, or `nil` at a logout)
    /// applies to requests adapted from now on.
    public var credential: Credential? {
        get { state.withLock { $0.credential } }
        set { state.withLock { $0.credential = newValue } }
    }

    // MARK: RequestInterceptor

    /// Applies the credential, refreshing it first when it requires it.
    public func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
        // A request the refresh itself sends must not wait for the refresh: it goes as it is,
        // on every attempt (a retry's adaptation runs outside the refresh's Swift task).
        let insideRefresh = RefreshScope.current == ObjectIdentifier(self)
        let bypass = state.withLock { state -> Bool in
            if insideRefresh { state.refreshTasks.insert(task.taskIdentifier) }
            return state.refreshTasks.contains(task.taskIdentifier)
        }
        if bypass { return request }
        let credential = try await credential(manager: task.manager) { state in
            guard let credential = state.credential else {
                return .ready(.failure(AuthenticationError.missingCredential))
            }
            if state.isRefreshing { return .wait }
            return credential.requiresRefresh ? .waitAndRefresh(credential) : .ready(.success(credential))
        }.get()
        var request = request
        authenticator.apply(credential, to: &request)
        return request
    }

    /// Replays a request the server refused for its credential, after a refresh when the
    /// credential it carried is still the current one.
    public func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
        if state.withLock({ $0.refreshTasks.contains(task.taskIdentifier) }) { return .doNotRetry }
        guard let request = attempt.request, let response = attempt.response,
            authenticator.didRequest(request, with: response, failDueToAuthenticationError: attempt.error)
        else { return .doNotRetry }
        let authenticator = self.authenticator
        let result = await credential(manager: task.manager) { state in
            guard let credential = state.credential else {
                return .ready(.failure(AuthenticationError.missingCredential))
            }
            if state.isRefreshing { return .wait }
            if !authenticator.isRequest(request, authenticatedWith: credential) { return .ready(.success(credential)) }
            return .waitAndRefresh(credential)
        }
        switch result {
        case .success: return .retry
        case .failure(let error) where error is CancellationError: return .doNotRetry
        case .failure(let error): return .doNotRetryWithError(error)
        }
    }

    // MARK: Waiting for a refresh

    /// The credential to use once `decide` (run under the lock) is satisfied: at once, after the
    /// running refresh, or after a refresh this call starts. A cancelled caller gets
    /// `CancellationError` at once.
    private func credential(
        manager: SessionManager,
        decide: @escaping @Sendable (inout State) -> Decision
    ) async -> Result<Credential, any Error> {
        let id = state.withLock { state -> Int in
            state.nextWaiter += 1
            state.unregistered.insert(state.nextWaiter)
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Credential, any Error>, Never>) in
                let decision = state.withLock { state -> Decision in
                    state.unregistered.remove(id)
                    if state.abandoned.remove(id) != nil { return .ready(.failure(CancellationError())) }
                    let decision = decide(&state)
                    switch decision {
                    case .ready: break
                    case .wait: state.waiters[id] = continuation
                    case .waitAndRefresh:
                        state.waiters[id] = continuation
                        state.isRefreshing = true
                    }
                    return decision
                }
                switch decision {
                case .ready(let result): continuation.resume(returning: result)
                case .wait: break
                case .waitAndRefresh(let stale): startRefresh(of: stale, manager: manager)
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Result<Credential, any Error>, Never>? in
                if state.unregistered.contains(id) {
                    state.abandoned.insert(id)
                    return nil
                }
                return state.waiters.removeValue(forKey: id)
            }
            waiter?.resume(returning: .failure(CancellationError()))
        }
    }

    /// Refreshes in a Swift task of its own, so cancelling the request that started it does
    /// not cancel it for the others; then hands the result to every waiter.
    private func startRefresh(of stale: Credential, manager: SessionManager) {
        let allowed = state.withLock { state -> Bool in
            let now = MonotonicClock.nanoseconds()
            let interval = UInt64(max(refreshWindow.interval, 0) * 1e9)
            state.refreshStarts.removeAll { now &- $0 > interval }
            guard state.refreshStarts.count < refreshWindow.maximumAttempts else { return false }
            state.refreshStarts.append(now)
            return true
        }
        let authenticator = self.authenticator
        let scope = ObjectIdentifier(self)
        Task {
            let result: Result<Credential, any Error>
            if allowed {
                do {
                    // Tasks created inside inherit the scope, so their adaptation skips the wait.
                    result = .success(
                        try await RefreshScope.$current.withValue(scope) {
                            try await authenticator.refresh(stale, for: manager)
                        }
                    )
                } catch {
                    result = .failure(error)
                }
            } else {
                result = .failure(AuthenticationError.excessiveRefresh)
            }
            let waiters = state.withLock { state -> [CheckedContinuation<Result<Credential, any Error>, Never>] in
                if case .success(let fresh) = result { state.credential = fresh }
                state.isRefreshing = false
                state.refreshTasks.removeAll()
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(returning: result) }
        }
    }
}

/// Which interceptor's refresh the current Swift task runs, if any.
enum RefreshScope {
    @TaskLocal static var current: ObjectIdentifier?
}

/// How many refreshes an ``AuthenticationInterceptor`` allows how quickly: a server that
/// refuses every new credential would otherwise be asked forever.
public struct RefreshWindow: Sendable, Hashable {
    /// The window, in seconds. Default 30.
    public var interval: TimeInterval
    /// Refreshes allowed within the window. Default 5.
    public var maximumAttempts: Int

    /// Creates a window.
    public init(interval: TimeInterval = 30, maximumAttempts: Int = 5) {
        self.interval = interval
        self.maximumAttempts = maximumAttempts
    }
}
