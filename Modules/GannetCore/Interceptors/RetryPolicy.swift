/// Retries idempotent requests that failed in a way worth trying again, with exponential
/// backoff and jitter, honouring the server's `Retry-After`.
///
/// An attempt is retried when all of these hold: fewer than ``retryLimit`` retries were made;
/// the task's method is in ``retryableHTTPMethods`` (idempotent ones only by default, so a
/// `POST` is never sent twice unless you add it); and the attempt got a status in
/// ``retryableHTTPStatusCodes`` or a `URLError` whose code is in ``retryableURLErrorCodes``.
///
/// The delay before retry *n* (counting from 0) is the nominal
/// `min(exponentialBackoffScale × exponentialBackoffBaseⁿ, maximumDelay)` scaled by a uniform
/// random factor in `[1 − jitter, 1 + jitter)`; ``delayBounds(forRetry:)`` states the range.
/// With the defaults: 0.5 s ± 25 % before the first retry, 1 s ± 25 % before the second. When
/// the response carries `Retry-After` (delta-seconds or an HTTP-date) and
/// ``honoursRetryAfter`` is on, that delay is used as given instead; one longer than
/// ``maximumDelay`` is not waited for and the response is delivered. See docs/interceptors.md.
///
/// ```swift
/// manager.interceptor = RetryPolicy(retryLimit: 3)
/// ```
public struct RetryPolicy: RequestInterceptor {
    /// Retries after the first attempt, at most. Default 2.
    public var retryLimit: Int
    /// The base of the exponential backoff; values under 1 count as 1. Default 2.
    public var exponentialBackoffBase: Double
    /// The delay before the first retry, before jitter, in seconds. Default 0.5.
    public var exponentialBackoffScale: TimeInterval
    /// The spread of the random factor around the nominal delay, clamped to 0…1. Default 0.25.
    public var jitter: Double
    /// The longest nominal backoff, and the longest `Retry-After` waited for. Default 60 s.
    public var maximumDelay: TimeInterval
    /// Methods that may be retried, uppercase. Default: the idempotent `DELETE`, `GET`, `HEAD`,
    /// `OPTIONS`, `PUT`, `TRACE` (RFC 9110 §9.2.2).
    public var retryableHTTPMethods: Set<String>
    /// Status codes that are retried. Default: 408, 500, 502, 503, 504.
    public var retryableHTTPStatusCodes: Set<Int>
    /// Transport failures that are retried. Default: ``defaultRetryableURLErrorCodes``.
    public var retryableURLErrorCodes: Set<URLError.Code>
    /// Whether a `Retry-After` header sets the delay. Default `true`.
    public var honoursRetryAfter: Bool

    /// The methods RFC 9110 §9.2.2 defines as idempotent (`CONNECT` and `PATCH` are not).
    public static let defaultRetryableHTTPMethods: Set<String> = ["DELETE", "GET", "HEAD", "OPTIONS", "PUT", "TRACE"]
    /// Request Timeout, Internal Server Error, Bad Gateway, Service Unavailable, Gateway Timeout.
    public static let defaultRetryableHTTPStatusCodes: Set<Int> = [408, 500, 502, 503, 504]
    /// Failures to reach the server or connections lost mid-exchange: transient by nature.
    /// Unlike Alamofire's list, `badServerResponse` is absent: Gannet reports broken framing
    /// and oversized heads with it, which a second attempt does not cure.
    public static let defaultRetryableURLErrorCodes: Set<URLError.Code> = [
        .cannotConnectToHost, .cannotFindHost, .cannotLoadFromNetwork, .dnsLookupFailed,
        .networkConnectionLost, .notConnectedToInternet, .secureConnectionFailed, .timedOut,
    ]

    /// Creates a policy; every parameter has the default described on its property.
    public init(
        retryLimit: Int = 2,
        exponentialBackoffBase: Double = 2,
        exponentialBackoffScale: TimeInterval = 0.5,
        jitter: Double = 0.25,
        maximumDelay: TimeInterval = 60,
        retryableHTTPMethods: Set<String> = RetryPolicy.defaultRetryableHTTPMethods,
        retryableHTTPStatusCodes: Set<Int> = RetryPolicy.defaultRetryableHTTPStatusCodes,
        retryableURLErrorCodes: Set<URLError.Code> = RetryPolicy.defaultRetryableURLErrorCodes,
        honoursRetryAfter: Bool = true
    ) {
        self.retryLimit = retryLimit
        self.exponentialBackoffBase = exponentialBackoffBase
        self.exponentialBackoffScale = exponentialBackoffScale
        self.jitter = jitter
        self.maximumDelay = maximumDelay
        self.retryableHTTPMethods = Set(retryableHTTPMethods.map { $0.uppercased() })
        self.retryableHTTPStatusCodes = retryableHTTPStatusCodes
        self.retryableURLErrorCodes = retryableURLErrorCodes
        self.honoursRetryAfter = honoursRetryAfter
    }

    /// Decides with the current time and a random jitter.
    public func retry(_ task: SessionTask, after attempt: FailedAttempt) async -> RetryResult {
        decision(
            after: attempt,
            method: task.originalRequest?.httpMethod ?? "GET",
            now: Date(),
            unit: Double.random(in: 0..<1)
        )
    }

    // MARK: Pure decisions

    /// The decision for `attempt` of a request sent with `method`, at `now`, with the jitter
    /// drawn as `unit` in `[0, 1)`. Pure: ``retry(_:after:)`` calls it with the clock and a
    /// random number.
    public func decision(after attempt: FailedAttempt, method: String, now: Date, unit: Double) -> RetryResult {
        guard attempt.retryCount < retryLimit, retryableHTTPMethods.contains(method.uppercased()) else {
            return .doNotRetry
        }
        if let code = attempt.urlErrorCode {
            return retryableURLErrorCodes.contains(code)
                ? .retryWithDelay(backoffDelay(forRetry: attempt.retryCount, unit: unit)) : .doNotRetry
        }
        guard attempt.error == nil, let status = attempt.statusCode, retryableHTTPStatusCodes.contains(status) else {
            return .doNotRetry
        }
        if honoursRetryAfter, let value = attempt.headerValue("Retry-After"),
            let delay = RetryAfter.delay(from: value, now: now)
        {
            return delay <= maximumDelay ? .retryWithDelay(delay) : .doNotRetry
        }
        return .retryWithDelay(backoffDelay(forRetry: attempt.retryCount, unit: unit))
    }

    /// The nominal delay before retry `retryCount` (0 for the first retry), before jitter.
    public func nominalDelay(forRetry retryCount: Int) -> TimeInterval {
        let base = max(exponentialBackoffBase, 1)
        let nominal = max(exponentialBackoffScale, 0) * pow(base, Double(max(retryCount, 0)))
        return min(nominal.isFinite ? nominal : .greatestFiniteMagnitude, max(maximumDelay, 0))
    }

    /// The delay before retry `retryCount` with the jitter drawn as `unit` (clamped to `[0, 1]`).
    public func backoffDelay(forRetry retryCount: Int, unit: Double) -> TimeInterval {
        let spread = clampedJitter
        let factor = 1 - spread + 2 * spread * min(max(unit, 0), 1)
        return nominalDelay(forRetry: retryCount) * factor
    }

    /// Every delay ``backoffDelay(forRetry:unit:)`` can produce for `retryCount`:
    /// `nominal × (1 − jitter) … nominal × (1 + jitter)`.
    public func delayBounds(forRetry retryCount: Int) -> ClosedRange<TimeInterval> {
        let nominal = nominalDelay(forRetry: retryCount)
        return nominal * (1 - clampedJitter)...nominal * (1 + clampedJitter)
    }

    private var clampedJitter: Double { jitter.isNaN ? 0 : min(max(jitter, 0), 1) }
}
