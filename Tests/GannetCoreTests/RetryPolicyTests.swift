import Foundation
import GannetCore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// RetryPolicy's decisions and delays as pure functions: no server, no clock.
@Suite("RetryPolicy: decisions, backoff and jitter bounds")
struct RetryPolicyTests {
    let url = URL(string: "http://127.0.0.1/x")!
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func attempt(
        status: Int? = nil,
        headers: [String: String] = [:],
        error: (any Error)? = nil,
        retryCount: Int = 0
    ) -> FailedAttempt {
        let response = status.map {
            HTTPURLResponse(url: url, statusCode: $0, httpVersion: "HTTP/1.1", headerFields: headers)!
        }
        return FailedAttempt(request: URLRequest(url: url), response: response, error: error, retryCount: retryCount)
    }

    func delay(_ result: RetryResult) -> TimeInterval? {
        if case .retryWithDelay(let seconds) = result { return seconds }
        return nil
    }

    func isDoNotRetry(_ result: RetryResult) -> Bool {
        if case .doNotRetry = result { return true }
        return false
    }

    @Test func defaultsMatchTheDocumentation() {
        let policy = RetryPolicy()
        #expect(policy.retryLimit == 2)
        #expect(policy.exponentialBackoffBase == 2)
        #expect(policy.exponentialBackoffScale == 0.5)
        #expect(policy.jitter == 0.25)
        #expect(policy.maximumDelay == 60)
        #expect(policy.retryableHTTPMethods == ["DELETE", "GET", "HEAD", "OPTIONS", "PUT", "TRACE"])
        #expect(policy.retryableHTTPStatusCodes == [408, 500, 502, 503, 504])
        #expect(policy.retryableURLErrorCodes.contains(.networkConnectionLost))
        #expect(policy.retryableURLErrorCodes.contains(.timedOut))
        #expect(!policy.retryableURLErrorCodes.contains(.cancelled))
        #expect(!policy.retryableURLErrorCodes.contains(.badServerResponse))
        #expect(policy.honoursRetryAfter)
    }

    /// Every retry count and every jitter draw on a fine grid lands inside the stated bounds,
    /// and the grid's ends reach them.
    @Test(arguments: [0.0, 0.1, 0.25, 0.5, 1.0])
    func backoffStaysWithinItsBoundsExhaustively(jitter: Double) {
        let policy = RetryPolicy(jitter: jitter, maximumDelay: 10)
        for retry in 0..<12 {
            let nominal = min(0.5 * pow(2, Double(retry)), 10)
            #expect(policy.nominalDelay(forRetry: retry) == nominal)
            let bounds = policy.delayBounds(forRetry: retry)
            #expect(abs(bounds.lowerBound - nominal * (1 - jitter)) < 1e-12)
            #expect(abs(bounds.upperBound - nominal * (1 + jitter)) < 1e-12)
            for step in 0...1000 {
                let unit = Double(step) / 1000
                let delay = policy.backoffDelay(forRetry: retry, unit: unit)
                #expect(bounds.contains(delay), "retry \(retry), unit \(unit): \(delay) outside \(bounds)")
            }
            #expect(abs(policy.backoffDelay(forRetry: retry, unit: 0) - bounds.lowerBound) < 1e-12)
            #expect(abs(policy.backoffDelay(forRetry: retry, unit: 1) - bounds.upperBound) < 1e-12)
            #expect(abs(policy.backoffDelay(forRetry: retry, unit: 0.5) - nominal) < 1e-12)
        }
    }

    @Test func outOfRangeSettingsAreClampedNotTrusted() {
        let policy = RetryPolicy(exponentialBackoffBase: 0.1, exponentialBackoffScale: -3, jitter: 7, maximumDelay: 5)
        #expect(policy.nominalDelay(forRetry: 3) == 0)
        let growing = RetryPolicy(exponentialBackoffBase: 0.5, exponentialBackoffScale: 1, jitter: -1)
        #expect(growing.nominalDelay(forRetry: 5) == 1, "a base under 1 counts as 1")
        #expect(growing.delayBounds(forRetry: 5) == 1...1, "a negative jitter counts as 0")
        let huge = RetryPolicy(maximumDelay: 20)
        #expect(huge.nominalDelay(forRetry: 5000) == 20, "overflowing backoff is capped")
        #expect(RetryPolicy(jitter: 5).delayBounds(forRetry: 0) == 0...1, "jitter over 1 counts as 1")
        #expect(RetryPolicy(jitter: .nan).delayBounds(forRetry: 0) == 0.5...0.5)
    }

    @Test func retryableStatusesOfIdempotentMethodsAreRetriedWithBackoff() {
        let policy = RetryPolicy()
        for status in [408, 500, 502, 503, 504] {
            for method in ["GET", "get", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"] {
                let result = policy.decision(after: attempt(status: status), method: method, now: now, unit: 0.5)
                #expect(delay(result) == 0.5, "\(method) \(status)")
            }
        }
        #expect(
            delay(policy.decision(after: attempt(status: 503, retryCount: 1), method: "GET", now: now, unit: 0)) == 0.75
        )
    }

    @Test func nonIdempotentMethodsAreNotRetriedByDefault() {
        let policy = RetryPolicy()
        for method in ["POST", "PATCH", "CONNECT", "LOCK"] {
            #expect(isDoNotRetry(policy.decision(after: attempt(status: 503), method: method, now: now, unit: 0.5)))
            let lost = attempt(error: URLError(.networkConnectionLost))
            #expect(isDoNotRetry(policy.decision(after: lost, method: method, now: now, unit: 0.5)))
        }
        let withPost = RetryPolicy(retryableHTTPMethods: ["post"])
        #expect(delay(withPost.decision(after: attempt(status: 503), method: "POST", now: now, unit: 0.5)) == 0.5)
    }

    @Test func otherStatusesAndErrorsAreNotRetried() {
        let policy = RetryPolicy()
        for status in [400, 401, 403, 404, 429, 501, 505] {
            #expect(
                isDoNotRetry(policy.decision(after: attempt(status: status), method: "GET", now: now, unit: 0.5)),
                "\(status)"
            )
        }
        for code in [
            URLError.Code.cancelled, .badURL, .serverCertificateUntrusted, .badServerResponse,
            .dataLengthExceedsMaximum,
        ] {
            #expect(
                isDoNotRetry(
                    policy.decision(after: attempt(error: URLError(code)), method: "GET", now: now, unit: 0.5)
                ),
                "\(code)"
            )
        }
        #expect(
            isDoNotRetry(
                policy.decision(
                    after: attempt(error: GannetError(.invalidHeader, "x")),
                    method: "GET",
                    now: now,
                    unit: 0.5
                )
            )
        )
        for code in RetryPolicy.defaultRetryableURLErrorCodes {
            #expect(
                delay(policy.decision(after: attempt(error: URLError(code)), method: "GET", now: now, unit: 1)) == 0.625
            )
        }
    }

    @Test func theLimitStopsRetries() {
        let policy = RetryPolicy(retryLimit: 3)
        for count in 0..<3 {
            #expect(
                delay(
                    policy.decision(after: attempt(status: 503, retryCount: count), method: "GET", now: now, unit: 0.5)
                ) != nil
            )
        }
        #expect(
            isDoNotRetry(
                policy.decision(after: attempt(status: 503, retryCount: 3), method: "GET", now: now, unit: 0.5)
            )
        )
        #expect(
            isDoNotRetry(
                RetryPolicy(retryLimit: 0).decision(after: attempt(status: 503), method: "GET", now: now, unit: 0.5)
            )
        )
    }

    @Test func retryAfterReplacesTheBackoff() {
        let policy = RetryPolicy()
        let seconds = attempt(status: 503, headers: ["Retry-After": "7"])
        #expect(delay(policy.decision(after: seconds, method: "GET", now: now, unit: 0)) == 7)
        let date = attempt(status: 503, headers: ["Retry-After": "Tue, 14 Nov 2023 22:13:32 GMT"])
        #expect(
            delay(policy.decision(after: date, method: "GET", now: now, unit: 0)) == 12,
            "1_700_000_000 is 22:13:20"
        )
        let past = attempt(status: 503, headers: ["Retry-After": "Fri, 31 Dec 1999 23:59:59 GMT"])
        #expect(delay(policy.decision(after: past, method: "GET", now: now, unit: 0)) == 0)
        let garbage = attempt(status: 503, headers: ["Retry-After": "soon"])
        #expect(
            delay(policy.decision(after: garbage, method: "GET", now: now, unit: 0.5)) == 0.5,
            "unreadable: backoff"
        )
        let tooLong = attempt(status: 503, headers: ["Retry-After": "61"])
        #expect(
            isDoNotRetry(policy.decision(after: tooLong, method: "GET", now: now, unit: 0.5)),
            "longer than maximumDelay: delivered"
        )
        let ignoring = RetryPolicy(honoursRetryAfter: false)
        #expect(delay(ignoring.decision(after: seconds, method: "GET", now: now, unit: 0.5)) == 0.5)
        let notRetryable = attempt(status: 429, headers: ["Retry-After": "1"])
        #expect(isDoNotRetry(policy.decision(after: notRetryable, method: "GET", now: now, unit: 0.5)))
        #expect(
            delay(
                RetryPolicy(retryableHTTPStatusCodes: [429]).decision(
                    after: notRetryable,
                    method: "GET",
                    now: now,
                    unit: 0.5
                )
            ) == 1
        )
    }
}
