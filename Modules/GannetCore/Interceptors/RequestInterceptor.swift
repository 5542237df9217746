/// An adapter and a retrier in one type (Alamofire's `RequestInterceptor`): implement either
/// half, the other does nothing.
///
/// Set one on a manager (``SessionManager/interceptor``) for every task, or pass one to a
/// task-creating call for that task only; a task uses the manager's first, then its own
/// (``Interceptor`` composes them). See docs/interceptors.md.
public protocol RequestInterceptor: RequestAdapter, RequestRetrier {}

extension RequestInterceptor {
    /// Sends the request unchanged.
    public func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
        request
    }

    /// Never retries.
    public func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
        .doNotRetry
    }
}
