/// Numbers, made the way swift-corelibs-foundation's `NSNumber.fromJSONNumber` makes them from
/// the number's text (Swift 6.3), checked value by value in `JSONBytesParserTests`:
///
/// - no `.` and no `e`: a negative number of at most 19 characters is `Int64`, a positive one
///   of at most 20 that fits is `UInt64` (`NSNumber(value:)` picks `objCType` `i`, `q` or `Q`
///   from the value: `-0` is the integer 0);
/// - else, more than 17 characters before a lower-case `e` (all of them without one: `E` is not
///   looked for, and `-` and `.` count) with an exponent in -128...127: `Decimal(string:)`,
///   an `NSDecimalNumber`. So `-9223372036854775807` and `1.2345678901234567` are decimals;
/// - else `Double(text)` (correctly rounded, like strtod), `objCType` `d`; not finite
///   (`1e400`) is JSONSerialization's error.
///
/// Integers are read from the digits directly; the rest hands the same text to the same
/// `Decimal` and `Double` initializers, so that those results are equal by construction.
extension JSONBytesParser {
    /// An exponent: where its `e` or `E` is, from the number's start, and its value.
    private struct Exponent {
        var isLowercase: Bool
        var offset: Int
        var value: Int
    }

    /// The number starting at `index` (`-` or a digit), in RFC 8259's grammar, which is
    /// JSONSerialization's.
    mutating func number() throws(Unsupported) -> NSNumber {
        let start = index
        let isNegative = peek == UInt8(ascii: "-")
        if isNegative { index += 1 }
        let integer = try integerPart()
        let hasFraction = try fractionPart()
        let exponent = try exponentPart(numberStart: start)
        let length = index - start
        if !hasFraction, exponent == nil, let integer {
            // At most 18 digits after the minus: the magnitude fits in an Int64.
            if isNegative, length <= 19 { return NSNumber(value: -Int64(integer)) }
            if !isNegative, length <= 20 { return NSNumber(value: integer) }
        }
        return try nonInteger(from: start, exponent: exponent)
    }

    /// A decimal (`NSDecimalNumber`) or a `Double`, as `fromJSONNumber` chooses.
    private func nonInteger(from start: Int, exponent: Exponent?) throws(Unsupported) -> NSNumber {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        var digitCount = index - start
        var power = 0
        if let exponent, exponent.isLowercase {
            digitCount = exponent.offset
            power = exponent.value
        }
        if digitCount > 17, (-128...127).contains(power), let decimal = Decimal(string: text), decimal.isFinite {
            return NSDecimalNumber(decimal: decimal)
        }
        guard let double = Double(text), double.isFinite else { throw Unsupported() }
        return NSNumber(value: double)
    }

    /// `0` or digits not starting with `0`; their value, `nil` past `UInt64.max`.
    private mutating func integerPart() throws(Unsupported) -> UInt64? {
        if peek == UInt8(ascii: "0") {
            index += 1
            // JSONSerialization refuses a leading zero.
            guard !Self.isDigit(peek) else { throw Unsupported() }
            return 0
        }
        guard Self.isDigit(peek) else { throw Unsupported() }
        var value: UInt64? = 0
        while Self.isDigit(peek) {
            if let current = value {
                let (tens, overflowed) = current.multipliedReportingOverflow(by: 10)
                let (sum, carried) = tens.addingReportingOverflow(UInt64(peek - UInt8(ascii: "0")))
                value = overflowed || carried ? nil : sum
            }
            index += 1
        }
        return value
    }

    /// `.` and at least one digit, if there.
    private mutating func fractionPart() throws(Unsupported) -> Bool {
        guard peek == UInt8(ascii: ".") else { return false }
        index += 1
        guard Self.isDigit(peek) else { throw Unsupported() }
        while Self.isDigit(peek) { index += 1 }
        return true
    }

    /// `e` or `E`, an optional sign and at least one digit, if there. An exponent beyond `Int`
    /// falls back: `fromJSONNumber` would read it as 0.
    private mutating func exponentPart(numberStart: Int) throws(Unsupported) -> Exponent? {
        guard peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") else { return nil }
        var exponent = Exponent(isLowercase: peek == UInt8(ascii: "e"), offset: index - numberStart, value: 0)
        index += 1
        let isNegative = peek == UInt8(ascii: "-")
        if isNegative || peek == UInt8(ascii: "+") { index += 1 }
        guard Self.isDigit(peek) else { throw Unsupported() }
        while Self.isDigit(peek) {
            let (tens, overflowed) = exponent.value.multipliedReportingOverflow(by: 10)
            let digit = Int(peek - UInt8(ascii: "0"))
            let (sum, carried) =
                isNegative ? tens.subtractingReportingOverflow(digit) : tens.addingReportingOverflow(digit)
            guard !overflowed, !carried else { throw Unsupported() }
            exponent.value = sum
            index += 1
        }
        return exponent
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }
}
