import GannetCore

/// The fault server's routes for retry and authentication tests (Tests/Servers/README.md).
/// Each keeps its state per `key`: give every test a key of its own (a UUID).
extension FaultRoute {
    /// How a ``flaky(_:failures:failure:retryAfter:)`` attempt fails.
    public enum FlakyFailure: Sendable {
        /// An HTTP status (e.g. 503).
        case status(Int)
        /// A TCP reset before any response byte.
        case reset
    }

    /// How a failed ``flaky(_:failures:failure:retryAfter:)`` attempt says when to come back.
    public enum FlakyRetryAfter: Sendable {
        /// `Retry-After: seconds`.
        case seconds(Int)
        /// `Retry-After:` the HTTP-date `seconds` after the server's next whole second.
        case date(secondsAhead: Int)
    }

    /// The first `failures` requests for `key` fail with `failure`; later ones answer `200` with
    /// JSON `{"attempts": n, "times": [arrival, …], "retry_after_dates": [unix seconds, …]}`.
    public static func flaky(
        _ key: String,
        failures: Int,
        failure: FlakyFailure = .status(503),
        retryAfter: FlakyRetryAfter? = nil
    ) -> FaultRoute {
        var query = "fail=\(failures)"
        switch failure {
        case .status(let code): query += "&status=\(code)"
        case .reset: query += "&mode=reset"
        }
        switch retryAfter {
        case .seconds(let seconds): query += "&retry_after=\(seconds)"
        case .date(let ahead): query += "&retry_after_date=\(ahead)"
        case nil: break
        }
        return FaultRoute("/flaky/\(key)?\(query)")
    }

    /// `200` for `Authorization: Bearer fresh-…`, else `401`; counted per `key`.
    public static func bearer(_ key: String) -> FaultRoute { FaultRoute("/bearer/\(key)") }

    /// JSON `{"accepted": a, "refused": r}` for ``bearer(_:)`` with `key`.
    public static func bearerCounts(_ key: String) -> FaultRoute { FaultRoute("/bearer-counts/\(key)") }
}
