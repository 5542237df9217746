/// Reads a `Retry-After` field value (RFC 9110 §10.2.3): delay-seconds or an HTTP-date.
///
/// ```swift
/// RetryAfter.delay(from: "120", now: Date())                             // 120
/// RetryAfter.delay(from: "Fri, 31 Dec 1999 23:59:59 GMT", now: Date())   // 0: in the past
/// ```
public enum RetryAfter {
    /// Seconds to wait from `now`; a date in the past gives 0. `nil` when the value is neither
    /// `1*DIGIT` nor an HTTP-date, so the caller falls back to its own backoff.
    public static func delay(from value: String, now: Date) -> TimeInterval? {
        let trimmed = value.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return Double(trimmed)
        }
        guard let date = date(fromHTTPDate: trimmed, now: now) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    /// Parses an HTTP-date in any of the three forms a recipient must accept (RFC 9110 §5.6.7):
    /// IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), RFC 850 (`Sunday, 06-Nov-94 08:49:37 GMT`,
    /// whose two-digit year is placed at most 50 years after `now`) and asctime
    /// (`Sun Nov  6 08:49:37 1994`).
    public static func date(fromHTTPDate text: String, now: Date = Date()) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        switch parts.count {
        case 6:  // IMF-fixdate
            guard shortDays.contains(parts[0].dropLast()), parts[0].hasSuffix(","), parts[5] == "GMT",
                parts[1].count == 2, let day = number(parts[1]), let month = month(parts[2]),
                parts[3].count == 4, let year = number(parts[3])
            else { return nil }
            return makeDate(year: year, month: month, day: day, time: parts[4])
        case 4:  // rfc850-date
            guard longDays.contains(parts[0].dropLast()), parts[0].hasSuffix(","), parts[3] == "GMT" else { return nil }
            let dayMonthYear = parts[1].split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard dayMonthYear.count == 3, dayMonthYear[0].count == 2, let day = number(dayMonthYear[0]),
                let month = month(dayMonthYear[1]), dayMonthYear[2].count == 2, let shortYear = number(dayMonthYear[2])
            else { return nil }
            return makeDate(year: fullYear(shortYear, now: now), month: month, day: day, time: parts[2])
        case 5:  // asctime-date
            guard shortDays.contains(Substring(parts[0])), let month = month(parts[1]),
                (1...2).contains(parts[2].count),
                let day = number(parts[2]), parts[4].count == 4, let year = number(parts[4])
            else { return nil }
            return makeDate(year: year, month: month, day: day, time: parts[3])
        default:
            return nil
        }
    }

    private static let shortDays: Set<Substring> = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    private static let longDays: Set<Substring> = [
        "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    ]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Digits only: `Int("+6")` would accept a sign the grammar forbids.
    private static func number(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }

    private static func month(_ name: String) -> Int? {
        months.firstIndex(of: name).map { $0 + 1 }
    }

    /// A two-digit year more than 50 years after `now` is the most recent past year with those digits.
    private static func fullYear(_ twoDigits: Int, now: Date) -> Int {
        let currentYear = civilYear(of: now)
        var year = currentYear - currentYear % 100 + twoDigits
        if year > currentYear + 50 { year -= 100 }
        return year
    }

    private static func makeDate(year: Int, month: Int, day: Int, time: String) -> Date? {
        let clock = time.split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
            let hour = number(clock[0]), let minute = number(clock[1]), let second = number(clock[2]),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second),
            (1...GregorianDay.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        let days = GregorianDay.daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    private static func civilYear(of date: Date) -> Int {
        let days = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        return yearOfEra + era * 400 + (monthIndex >= 10 ? 1 : 0)
    }
}
