/// Changes a request before each attempt is sent: adds a credential, a signature, a header.
///
/// The adapter runs asynchronously, on Swift's cooperative pool, never on the engine thread:
/// it may await a token refresh or a keychain read. Throwing fails the task before anything is
/// sent, with `GannetError(.requestAdaptationFailed)` whose `underlyingError` is what was thrown.
/// Cancelling the task while an adapter runs ends the task at once with `URLError.cancelled`
/// and cancels the Swift task the adapter runs in. See docs/interceptors.md.
///
/// ```swift
/// struct APIKey: RequestAdapter {
///     func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
///         var request = request
///         request.setValue("secret", forHTTPHeaderField: "X-API-Key")
///         return request
///     }
/// }
/// ```
public protocol RequestAdapter: Sendable {
    /// Returns the request to send for this attempt of `task`.
    ///
    /// Every attempt adapts the task's ``SessionTask/originalRequest`` afresh, so a credential
    /// replaced between attempts is not stacked on the previous one; ``SessionTask/retryCount``
    /// tells which attempt this is (0 for the first) and ``SessionTask/lastFailedAttempt`` why the
    /// previous one failed. The body is the task's own: an adapter changes the URL, the method
    /// and the headers, not the body.
    func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest
}
