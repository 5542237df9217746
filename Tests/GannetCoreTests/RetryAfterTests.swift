import Foundation
import GannetCore
import Testing

/// `Retry-After` (RFC 9110 §10.2.3) and the three HTTP-date forms (§5.6.7).
@Suite("RetryAfter: delta-seconds and HTTP-date")
struct RetryAfterTests {
    /// Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's own example.
    let example = Date(timeIntervalSince1970: 784_111_777)
    let now = Date(timeIntervalSince1970: 784_111_700)

    @Test func deltaSeconds() {
        #expect(RetryAfter.delay(from: "120", now: now) == 120)
        #expect(RetryAfter.delay(from: "0", now: now) == 0)
        #expect(RetryAfter.delay(from: " 5\t", now: now) == 5, "optional whitespace around the value")
        #expect(RetryAfter.delay(from: "000017", now: now) == 17)
        #expect(RetryAfter.delay(from: "99999999999999999999", now: now) == 1e20, "too large for Int, still a delay")
    }

    @Test(arguments: ["", " ", "-1", "+5", "1.5", "5s", "0x10", "1e3", "five", "5 5"])
    func invalidDeltaSecondsAreRejected(value: String) {
        #expect(RetryAfter.delay(from: value, now: now) == nil)
    }

    @Test func theThreeDateForms() {
        #expect(RetryAfter.date(fromHTTPDate: "Sun, 06 Nov 1994 08:49:37 GMT") == example)
        #expect(RetryAfter.date(fromHTTPDate: "Sunday, 06-Nov-94 08:49:37 GMT", now: now) == example)
        #expect(RetryAfter.date(fromHTTPDate: "Sun Nov  6 08:49:37 1994") == example)
        #expect(RetryAfter.date(fromHTTPDate: "Sun Nov 16 08:49:37 1994") == example.addingTimeInterval(10 * 86_400))
        #expect(RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: now) == 77)
        #expect(
            RetryAfter.delay(from: "Sun, 06 Nov 1994 08:49:37 GMT", now: example.addingTimeInterval(1)) == 0,
            "past: no wait"
        )
    }

    @Test func calendarEdges() {
        #expect(RetryAfter.date(fromHTTPDate: "Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        #expect(
            RetryAfter.date(fromHTTPDate: "Tue, 29 Feb 2000 12:00:00 GMT") == Date(timeIntervalSince1970: 951_825_600)
        )
        #expect(
            RetryAfter.date(fromHTTPDate: "Fri, 31 Dec 2100 23:59:59 GMT") == Date(timeIntervalSince1970: 4_133_980_799)
        )
        #expect(RetryAfter.date(fromHTTPDate: "Wed, 29 Feb 2023 00:00:00 GMT") == nil, "2023 is not a leap year")
        #expect(RetryAfter.date(fromHTTPDate: "Mon, 29 Feb 2100 00:00:00 GMT") == nil, "2100 is not a leap year")
        #expect(RetryAfter.date(fromHTTPDate: "Mon, 31 Apr 2024 00:00:00 GMT") == nil)
    }

    /// RFC 850's two-digit year: one more than 50 years ahead belongs to the previous century.
    @Test func twoDigitYears() {
        let in2026 = Date(timeIntervalSince1970: 1_780_000_000)
        #expect(
            RetryAfter.date(fromHTTPDate: "Friday, 01-Jan-76 00:00:00 GMT", now: in2026)
                == RetryAfter.date(fromHTTPDate: "Fri, 01 Jan 2076 00:00:00 GMT")
        )
        #expect(
            RetryAfter.date(fromHTTPDate: "Saturday, 01-Jan-77 00:00:00 GMT", now: in2026)
                == RetryAfter.date(fromHTTPDate: "Sat, 01 Jan 1977 00:00:00 GMT")
        )
        #expect(
            RetryAfter.date(fromHTTPDate: "Thursday, 01-Jan-26 00:00:00 GMT", now: in2026)
                == RetryAfter.date(fromHTTPDate: "Thu, 01 Jan 2026 00:00:00 GMT")
        )
    }

    @Test(arguments: [
        "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 08:49:37", "Sun 06 Nov 1994 08:49:37 GMT",
        "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 06 November 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT", "Sun, 06 Nov 1994 08:60:00 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 08:49 GMT", "Sun, +6 Nov 1994 08:49:37 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:-7 GMT", "Sunday, 06-Nov-1994 08:49:37 GMT",
        "Sun, 06-Nov-94 08:49:37 GMT", "Sun Nov 6 08:49:37 94", "Sun Nov 106 08:49:37 1994", "tomorrow",
    ])
    func malformedDatesAreRejected(value: String) {
        #expect(RetryAfter.date(fromHTTPDate: value, now: now) == nil)
        #expect(RetryAfter.delay(from: value, now: now) == nil)
    }
}
