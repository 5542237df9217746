/// AFNetworking's `AFPercentEscapedStringFromString`: RFC 3986 percent-escaping for a query
/// component, which leaves only the unreserved characters (`A–Z a–z 0–9 - . _ ~`) and `/` and `?`
/// as they are. RFC 3986 §3.4 allows `/` and `?` in a query, and escaping them would only make
/// URLs longer. Every other byte, including `+`, `&`, `=`, `[` and `]`, becomes `%XX`.
///
/// AFNetworking escaped in batches of 50 UTF-16 units (to work around an iOS 8 crash on long
/// strings) and had to widen each batch so that it never split a composed character sequence.
/// This implementation has no batches: it escapes the text's bytes in one pass, so a grapheme
/// or emoji sequence can never be split, whatever its length or position.
package enum PercentEscaping {
    /// Escapes `text`, encoded with `encoding` first.
    ///
    /// - Throws: ``RequestSerializationError/Code/parameterEncodingFailed`` when `encoding`
    ///   cannot represent `text`.
    static func escape(
        _ text: String,
        encoding: String.Encoding,
        spaceEncoding: RequestSerializerConfiguration.SpaceEncoding
    ) throws -> String {
        if encoding == .utf8 {
            return escape(bytes: text.utf8, spaceAsPlus: spaceEncoding.usesPlus)
        }
        guard let data = text.data(using: encoding, allowLossyConversion: false) else {
            throw RequestSerializationError(
                .parameterEncodingFailed,
                "A parameter contains characters that the string encoding \(encoding) cannot represent"
            )
        }
        return escape(bytes: data, spaceAsPlus: spaceEncoding.usesPlus)
    }

    /// Escapes `bytes`. With `keepingSlashAndQuestionMark` false, `/` and `?` are escaped too
    /// and only the unreserved characters stay (the CLI's `name==value` query items, as httpie
    /// writes them).
    package static func escape<Bytes: Sequence<UInt8>>(
        bytes: Bytes,
        spaceAsPlus: Bool,
        keepingSlashAndQuestionMark: Bool = true
    ) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount)
        for byte in bytes {
            if isLeftUnescaped(byte),
                keepingSlashAndQuestionMark || (byte != UInt8(ascii: "/") && byte != UInt8(ascii: "?"))
            {
                output.append(byte)
            } else if byte == UInt8(ascii: " ") && spaceAsPlus {
                output.append(UInt8(ascii: "+"))
            } else {
                output.append(UInt8(ascii: "%"))
                output.append(hexDigits[Int(byte >> 4)])
                output.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Whether `byte` is unreserved (RFC 3986 §2.3) or one of `/` and `?`.
    static func isLeftUnescaped(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"),
            UInt8(ascii: "?"):
            return true
        default:
            return false
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
