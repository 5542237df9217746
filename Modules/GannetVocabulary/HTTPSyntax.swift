/// RFC 9110's token and field-value rules, shared by every Gannet module that reads or writes
/// header syntax (the engine, the request serializers, the media-type parser).
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
    package static func isToken(_ string: some StringProtocol) -> Bool {
        !string.isEmpty && string.utf8.allSatisfy(isTokenByte)
    }

    /// A field value holds visible characters, spaces, tabs and obs-text; never CR, LF, NUL or
    /// another control. https://www.rfc-editor.org/rfc/rfc9110.html#name-field-values
    package static func isFieldValue(_ string: some StringProtocol) -> Bool {
        string.utf8.allSatisfy { $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }
    }
}
