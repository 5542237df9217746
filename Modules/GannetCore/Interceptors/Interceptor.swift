/// Composes adapters and retriers, applied in order.
///
/// Adapters run one after the other, each given the previous one's request; the first that
/// throws fails the task. Retriers are asked in order until one answers anything but
/// ``RetryResult/doNotRetry``; that answer wins.
///
/// ```swift
/// manager.interceptor = Interceptor(adapters: [APIKey()], retriers: [RetryPolicy()])
/// ```
public struct Interceptor: RequestInterceptor {
    /// The adapters, in the order they run.
    public let adapters: [any RequestAdapter]
    /// The retriers, in the order they are asked.
    public let retriers: [any RequestRetrier]

    /// Creates an interceptor from separate adapters and retriers.
    public init(adapters: [any RequestAdapter] = [], retriers: [any RequestRetrier] = []) {
        self.adapters = adapters
        self.retriers = retriers
    }

    /// Creates an interceptor from interceptors, each used both to adapt and to retry.
    public init(interceptors: [any RequestInterceptor]) {
        adapters = interceptors
        retriers = interceptors
    }

    /// Runs every adapter in order.
    public func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
        var request = request
        for adapter in adapters {
            try Task.checkCancellation()
            request = try await adapter.adapt(request, for: task)
        }
        return request
    }

    /// The first answer that is not ``RetryResult/doNotRetry``.
    public func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
        for retrier in retriers {
            let result = await retrier.retry(task, after: attempt)
            if case .doNotRetry = result { continue }
            return result
        }
        return .doNotRetry
    }

    /// Whether `adapter` is known to send every request unchanged (a ``RetryPolicy``, or a
    /// composite of such), so a first attempt can start without a hop to a Swift task.
    static func adaptsNothing(_ adapter: any RequestAdapter) -> Bool {
        if adapter is RetryPolicy { return true }
        if let composite = adapter as? Interceptor { return composite.adapters.allSatisfy(adaptsNothing) }
        return false
    }
}
