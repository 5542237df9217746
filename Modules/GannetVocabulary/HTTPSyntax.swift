/// RFC 9110's token and field-value rules, shared by every Gannet module that reads or writes
/// header syntax (the engine, the request serializers, the media-type parser).
///
/// The checks take a `String`, not `some StringProtocol`: the engine runs them on every
/// request's method and header fields from another module, where a generic is called
/// unspecialized and reads each byte through witness tables (docs/performance.md, "The
/// vocabulary module"). Every caller has a `String`.
package enum HTTPSyntax {
    /// `tchar`: https://www.rfc-editor.org/rfc/rfc9110.html#name-tokens
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// A non-empty token: a method, a field name, a media type's type or subtype.
    package static func isToken(_ string: String) -> Bool {
        let fast = string.utf8.withContiguousStorageIfAvailable { !$0.isEmpty && $0.allSatisfy(isTokenByte) }
        return fast ?? (!string.isEmpty && string.utf8.allSatisfy(isTokenByte))
    }

    /// A field value holds visible characters, spaces, tabs and obs-text; never CR, LF, NUL or
    /// another control. https://www.rfc-editor.org/rfc/rfc9110.html#name-field-values
    package static func isFieldValue(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isFieldValueByte) }
            ?? string.utf8.allSatisfy(isFieldValueByte)
    }

    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte == 0x09 || (byte >= 0x20 && byte != 0x7F)
    }
}
