/// Strings: one validated `String` from the body's bytes when there is no escape, else the
/// unescaped UTF-8 gathered in a reused buffer first.
extension JSONBytesParser {
    /// The string whose opening quote is at `index`; `index` ends past its closing quote.
    mutating func string() throws(Unsupported) -> String {
        index += 1
        let start = index
        // The bytes ORed together: below 0x80, the run is ASCII and needs no validation.
        var union: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let run = segment(from: start)
                guard !opensWithByteOrderMark(run) else { throw Unsupported() }
                index += 1
                return try makeString(run, isASCII: union < 0x80)
            case UInt8(ascii: "\\"):
                return try escapedString(from: start, union: union)
            case 0..<0x20:
                // JSONSerialization refuses control characters that are not escaped.
                throw Unsupported()
            default:
                union |= byte
                index += 1
            }
        }
        throw Unsupported()
    }

    /// The rest of a string that has an escape at `index`; its unescaped text began at `start`,
    /// and `union` holds its bytes ORed together so far.
    private mutating func escapedString(from start: Int, union: UInt8) throws(Unsupported) -> String {
        unescaped.removeAll(keepingCapacity: true)
        var runStart = start
        var union = union
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                try appendRun(from: runStart)
                index += 1
                // Escapes add whole scalars, so only the runs can make the text invalid.
                return try unescaped.withUnsafeBufferPointer { text throws(Unsupported) in
                    try makeString(text, isASCII: union < 0x80)
                }
            case UInt8(ascii: "\\"):
                try appendRun(from: runStart)
                try appendEscape()
                runStart = index
            case 0..<0x20:
                throw Unsupported()
            default:
                union |= byte
                index += 1
            }
        }
        throw Unsupported()
    }

    /// The bytes from `start` to `index`.
    private func segment(from start: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: bytes[start..<index])
    }

    /// Adds the unescaped bytes from `start` to `index` to ``unescaped``. JSONSerialization makes
    /// each such run a `String` on its own; none can be valid UTF-8 alone yet valid joined,
    /// since an escape always adds whole scalars, so the joined text is validated once.
    private mutating func appendRun(from start: Int) throws(Unsupported) {
        let run = segment(from: start)
        guard !opensWithByteOrderMark(run) else { throw Unsupported() }
        unescaped.append(contentsOf: run)
    }

    /// `text` as a `String`, if it is valid UTF-8 (ASCII always is; `decoding` then repairs
    /// nothing, and skips the generic validation's metadata lookups).
    private func makeString(_ text: UnsafeBufferPointer<UInt8>, isASCII: Bool) throws(Unsupported) -> String {
        if isASCII { return String(decoding: text, as: UTF8.self) }
        guard let string = String(validating: text, as: UTF8.self) else { throw Unsupported() }
        return string
    }

    /// `String(bytes:encoding: .utf8)`, which JSONSerialization calls on each unescaped run,
    /// drops a U+FEFF that opens the run (and keeps one inside it): too rare to copy.
    private func opensWithByteOrderMark(_ run: UnsafeBufferPointer<UInt8>) -> Bool {
        run.count >= 3 && run[0] == 0xEF && run[1] == 0xBB && run[2] == 0xBF
    }

    // MARK: Escapes

    /// The escape at `index` (a backslash), appended to ``unescaped`` as UTF-8.
    private mutating func appendEscape() throws(Unsupported) {
        guard bytes.count - index >= 2 else { throw Unsupported() }
        let letter = bytes[index + 1]
        index += 2
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): unescaped.append(letter)
        case UInt8(ascii: "b"): unescaped.append(0x08)
        case UInt8(ascii: "f"): unescaped.append(0x0C)
        case UInt8(ascii: "n"): unescaped.append(0x0A)
        case UInt8(ascii: "r"): unescaped.append(0x0D)
        case UInt8(ascii: "t"): unescaped.append(0x09)
        case UInt8(ascii: "u"):
            let scalar = try unicodeEscape()
            UTF8.encode(scalar) { unescaped.append($0) }
        default: throw Unsupported()
        }
    }

    /// The scalar of `XXXX` after `\u` (at `index`), or of a surrogate pair `\uD83D\uDE00`. A
    /// lone surrogate is an error in JSONSerialization, so it falls back.
    private mutating func unicodeEscape() throws(Unsupported) -> Unicode.Scalar {
        let unit = try hexUnit()
        switch unit & 0xFC00 {
        case 0xD800:
            guard bytes.count - index >= 2, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw Unsupported() }
            index += 2
            let low = try hexUnit()
            guard low & 0xFC00 == 0xDC00 else { throw Unsupported() }
            let value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
            guard let scalar = Unicode.Scalar(value) else { throw Unsupported() }
            return scalar
        case 0xDC00:
            throw Unsupported()
        default:
            guard let scalar = Unicode.Scalar(unit) else { throw Unsupported() }
            return scalar
        }
    }

    /// Four hexadecimal digits, either case.
    private mutating func hexUnit() throws(Unsupported) -> UInt16 {
        guard bytes.count - index >= 4 else { throw Unsupported() }
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw Unsupported()
            }
            unit = unit << 4 | UInt16(digit)
            index += 1
        }
        return unit
    }
}
