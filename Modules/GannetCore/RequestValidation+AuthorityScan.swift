extension RequestValidation {
    /// The URL checks read straight from the bytes of `absoluteString`, for the shape nearly
    /// every request has: `http` or `https`, `://`, an optional user-info, a host of letters,
    /// digits, `-`, `.`, `_` and `~`, an optional port, then the path.
    ///
    /// It answers only where the answer cannot differ from Foundation's (`foundationVerdict`):
    /// every byte is printable ASCII, and the host holds no `%`, so it cannot decode to a control
    /// character. Anything else (an IPv6 literal, a percent-encoded host, a second `@`, a port
    /// of more than five digits or above 65535, another scheme) is `nil`, and Foundation
    /// decides. `RequestValidationTests` holds the two to the same verdicts.
    enum AuthorityScan {
        static func verdict(of bytes: UnsafeBufferPointer<UInt8>) -> Verdict? {
            for byte in bytes where byte <= 0x20 || byte >= 0x7F { return nil }
            guard let authorityStart = afterHTTPSchemeAndSlashes(bytes) else { return nil }
            var end = authorityStart
            while end < bytes.count, !isAuthorityEnd(bytes[end]) { end += 1 }

            var hostStart = authorityStart
            var sawAt = false
            for index in authorityStart..<end where bytes[index] == UInt8(ascii: "@") {
                if sawAt { return nil }
                sawAt = true
                hostStart = index + 1
            }
            if sawAt, !bytes[authorityStart..<(hostStart - 1)].allSatisfy(isUserInfoByte) { return nil }

            var index = hostStart
            while index < end, isHostByte(bytes[index]) { index += 1 }
            // An empty host, or one that starts with `[` or holds `%`: Foundation's to judge.
            guard index > hostStart else { return nil }
            if index == end { return Verdict(problem: nil, isHTTP: true) }
            guard bytes[index] == UInt8(ascii: ":") else { return nil }
            index += 1

            var port = 0
            var digits = 0
            while index < end, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                digits += 1
                // A sixth digit is Foundation's to judge, and stopping before it keeps `port`
                // from overflowing on a hostile run of digits (found by the url-validation fuzz target).
                guard digits <= 5 else { return nil }
                port = port * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            // An empty port (`http://host:/`) is no port, as Foundation reads it.
            guard index == end, port <= 65535 else { return nil }
            return Verdict(problem: nil, isHTTP: true)
        }

        /// The index after `http://` or `https://` (any case), `nil` for any other start.
        private static func afterHTTPSchemeAndSlashes(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            // `| 0x20` lowers an ASCII letter; no other printable byte becomes one of these.
            func isLetter(_ index: Int, _ lower: Unicode.Scalar) -> Bool {
                index < bytes.count && bytes[index] | 0x20 == UInt8(ascii: lower)
            }
            guard isLetter(0, "h"), isLetter(1, "t"), isLetter(2, "t"), isLetter(3, "p") else { return nil }
            let colon = isLetter(4, "s") ? 5 : 4
            guard colon + 2 < bytes.count, bytes[colon] == UInt8(ascii: ":"), bytes[colon + 1] == UInt8(ascii: "/"),
                bytes[colon + 2] == UInt8(ascii: "/")
            else { return nil }
            return colon + 3
        }

        private static func isAuthorityEnd(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#")
        }

        /// RFC 3986 `unreserved`: what a registered name holds without percent-encoding or
        /// sub-delimiters.
        private static func isHostByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                return true
            default:
                return false
            }
        }

        /// RFC 3986 `userinfo`: unreserved, percent-encoded, sub-delimiters and `:`.
        private static func isUserInfoByte(_ byte: UInt8) -> Bool {
            if isHostByte(byte) { return true }
            switch byte {
            case UInt8(ascii: "%"), UInt8(ascii: ":"), UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"),
                UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"),
                UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
                return true
            default:
                return false
            }
        }
    }
}
