import Foundation

/// RFC 6265bis §5.1.1, dates in `Expires`: the forgiving algorithm browsers use, not an HTTP
/// date parser. Tokens are split at delimiters; the first token that looks like a time, a day of
/// the month, a month and a year is each taken, in that order of trial.
/// https://datatracker.ietf.org/doc/html/draft-ietf-httpbis-rfc6265bis#name-dates
enum CookieDate {
    /// The date `text` names, in UTC, or `nil` when §5.1.1 fails it.
    static func parse(_ text: ArraySlice<UInt8>) -> Date? {
        var time: (hour: Int, minute: Int, second: Int)?
        var day: Int?
        var month: Int?
        var year: Int?
        // Step 1: date-tokens separated by delimiters.
        for token in text.split(whereSeparator: isDelimiter) {
            // Step 2: each production tried in order, each found once.
            if time == nil, let found = self.time(token) {
                time = found
            } else if day == nil, let found = leadingNumber(token, digits: 1...2) {
                day = found
            } else if month == nil, let found = self.month(token) {
                month = found
            } else if year == nil, let found = leadingNumber(token, digits: 2...4) {
                year = found
            }
        }
        guard let time, let day, let month, var year else { return nil }
        // Steps 3-4: two-digit years.
        if (70...99).contains(year) { year += 1900 } else if (0...69).contains(year) { year += 2000 }
        // Step 5: out-of-range parts fail the date.
        guard (1...31).contains(day), year >= 1601, time.hour <= 23, time.minute <= 59, time.second <= 59 else {
            return nil
        }
        // Step 6: a date that does not exist (30 February) fails too.
        guard day <= GregorianDay.daysIn(month: month, year: year) else { return nil }
        let days = GregorianDay.daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + time.hour * 3600 + time.minute * 60 + time.second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    /// delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E
    static func isDelimiter(_ byte: UInt8) -> Bool {
        byte == 0x09 || (0x20...0x2F).contains(byte) || (0x3B...0x40).contains(byte)
            || (0x5B...0x60).contains(byte) || (0x7B...0x7E).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// `n*mDIGIT ( non-digit *OCTET )`: the leading number when its digit count is in `digits`
    /// and what follows it is not a digit.
    static func leadingNumber(_ token: ArraySlice<UInt8>, digits: ClosedRange<Int>) -> Int? {
        let count = token.prefix(while: isDigit).count
        guard digits.contains(count) else { return nil }
        return token.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `hms-time ( non-digit *OCTET )`, hms-time = time-field ":" time-field ":" time-field.
    static func time(_ token: ArraySlice<UInt8>) -> (hour: Int, minute: Int, second: Int)? {
        var fields: [Int] = []
        var rest = token
        for index in 0..<3 {
            let count = rest.prefix(while: isDigit).count
            guard (1...2).contains(count) else { return nil }
            fields.append(rest.prefix(count).reduce(0) { $0 * 10 + Int($1 - 0x30) })
            rest = rest.dropFirst(count)
            if index < 2 {
                guard rest.first == UInt8(ascii: ":") else { return nil }
                rest = rest.dropFirst()
            }
        }
        return (fields[0], fields[1], fields[2])
    }

    /// `month ( non-digit *OCTET )`: the first three characters name the month, in any case.
    static func month(_ token: ArraySlice<UInt8>) -> Int? {
        guard token.count >= 3 else { return nil }
        let prefix = String(decoding: token.prefix(3), as: UTF8.self).lowercased()
        let names = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        return names.firstIndex(of: prefix).map { $0 + 1 }
    }
}
