/// Decides whether a failed attempt of a task is sent again.
///
/// Asked after an attempt that ended with a transport error (other than a cancellation) or
/// with a status code of 400 or more, before the response serializer runs; never for a
/// cancelled task or a byte stream (`bytes(for:)`, whose consumer already has the response).
/// Runs on Swift's cooperative pool, never on the engine thread. See docs/interceptors.md.
///
/// ```swift
/// struct RetryOnceOn429: RequestRetrier {
///     func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
///         attempt.statusCode == 429 && attempt.retryCount == 0 ? .retryWithDelay(1) : .doNotRetry
///     }
/// }
/// ```
public protocol RequestRetrier: Sendable {
    /// What to do after `attempt` failed.
    func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult
}
