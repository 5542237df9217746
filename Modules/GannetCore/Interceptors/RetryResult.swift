/// A ``RequestRetrier``'s decision.
public enum RetryResult: Sendable {
    /// Send the request again now (adapted again first).
    case retry
    /// Send the request again after this many seconds. Cancelling the task during the wait
    /// ends it at once with `URLError.cancelled`.
    case retryWithDelay(TimeInterval)
    /// Deliver the failed attempt as it is: its error, or its response to the serializer.
    case doNotRetry
    /// End the task with `GannetError(.requestRetryFailed)` whose `underlyingError` is this error.
    case doNotRetryWithError(any Error)

    /// The delay before the next attempt, `nil` when there is none.
    var delay: TimeInterval? {
        switch self {
        case .retry: return 0
        case .retryWithDelay(let seconds): return max(0, seconds)
        case .doNotRetry, .doNotRetryWithError: return nil
        }
    }
}
