/// RFC 9110's token and field-value rules, shared by every Gannet module that reads or writes
/// header syntax (the engine, the request serializers, the media-type parser).
///
/// The checks take a `String`, not `some StringProtocol`: the engine runs them on every
/// request's method and header fields from another module, where a generic is called
/// unspecialized and reads each byte through witness tables (docs/performance.md, "The
/// vocabulary module"). Every caller has a `String`, except the engine's response-head parser,
/// which checks a header name's bytes as libcurl handed them (`isToken` of a buffer).
package enum HTTPSyntax {
    /// `tchar`: https://www.rfc-editor.org/rfc/rfc9110.html#name-tokens, that is letters, digits,
    /// `! # $ % & ' * + - . ^ _ | ~` and the backtick.
    ///
    /// One bit for each ASCII byte, bit `n` of the first word for byte `n` (0–63), of the
    /// second for byte `64 + n`; HTTPSyntaxTests checks all 256 bytes against the rule as
    /// written.
    package static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<64: return (0x03FF_6CFA_0000_0000 as UInt64) >> byte & 1 == 1
        case 64..<128: return (0x57FF_FFFF_C7FF_FFFE as UInt64) >> (byte - 64) & 1 == 1
        default: return false
        }
    }

    /// A non-empty token: a method, a field name, a media type's type or subtype.
    package static func isToken(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { isToken($0) }
            ?? (!string.isEmpty && string.utf8.allSatisfy(isTokenByte))
    }

    /// A non-empty token, as bytes: the engine's parser asks it of each header name it reads.
    /// One call for the name, where a call into this module for each byte cost about 17
    /// instructions a byte (docs/performance.md).
    package static func isToken(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isTokenByte)
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
