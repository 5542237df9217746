/// Finds a trailing comma (`[1,]`, `{"a":1,}`) in a JSON text that Foundation on Linux parsed.
///
/// RFC 8259 (section 5: `value *( value-separator value )`) allows no comma before a closing
/// bracket, and Apple's Foundation refuses one (`JSONSerialization` and `JSONDecoder` alike);
/// Foundation on Linux accepts it. A body a Mac client rejects must not parse here
/// (docs/response-serialization.md), so the serializers refuse what this finds.
///
/// Only a text that already parsed is scanned, so its strings and escapes are well formed: the
/// scan needs to know only whether it is inside a string. Bodies in UTF-16 or UTF-32 (which
/// `JSONSerialization` recognises by a byte-order mark or by the NUL bytes of the first
/// characters, RFC 4627 section 3) are transcoded to UTF-8 first, as `JSONSerialization` reads
/// them.
package enum JSONTrailingComma {
    /// The error the serializers report underneath theirs: `JSONSerialization`'s domain and code
    /// for a syntax error (`NSCocoaErrorDomain` 3840, what Apple's Foundation throws here), with
    /// the offset of the comma in the UTF-8 text.
    package static func error(atOffset offset: Int) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain,
            code: CocoaError.propertyListReadCorrupt.rawValue,
            userInfo: [
                NSDebugDescriptionErrorKey:
                    "Trailing comma at offset \(offset): RFC 8259 allows no comma before a closing bracket"
            ]
        )
    }

    /// The offset of the first trailing comma in `data`'s UTF-8 text, or `nil` when it has none.
    package static func offset(in data: Data) -> Int? {
        guard let utf8 = utf8Text(of: data) else { return nil }
        return utf8.withUnsafeBytes { offset(in: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    private static func offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var inString = false
        var escaped = false
        var comma: Int?
        for (index, byte) in bytes.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
                continue
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if let comma { return comma }
            case UInt8(ascii: ","):
                comma = index
                continue
            case UInt8(ascii: "\""):
                inString = true
            default:
                break
            }
            comma = nil
        }
        return nil
    }

    /// The text as UTF-8, transcoded from the encoding `JSONSerialization` detects; `nil` if
    /// it does not decode (then `JSONSerialization` did not parse it either).
    private static func utf8Text(of data: Data) -> Data? {
        let head = Array(data.prefix(4))
        func at(_ index: Int) -> UInt8? { index < head.count ? head[index] : nil }
        let encoding: String.Encoding
        switch (at(0), at(1), at(2), at(3)) {
        case (0xEF, 0xBB, 0xBF, _): return data.dropFirst(3)
        case (0x00, 0x00, 0xFE, 0xFF), (0xFF, 0xFE, 0x00, 0x00), (0x00, 0x00, 0x00, _), (_, 0x00, 0x00, 0x00):
            encoding = .utf32
        case (0xFE, 0xFF, _, _), (0xFF, 0xFE, _, _), (0x00, _, _, _), (_, 0x00, _, _):
            encoding = .utf16
        default:
            return data
        }
        return utf16Or32(data, encoding, head: head).flatMap { $0.data(using: .utf8) }
    }

    /// Decodes a UTF-16 or UTF-32 body, big- or little-endian by its mark or by where its NULs are.
    private static func utf16Or32(_ data: Data, _ encoding: String.Encoding, head: [UInt8]) -> String? {
        let hasMark =
            head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE])
            || head.starts(with: [0x00, 0x00, 0xFE, 0xFF])
        if hasMark { return String(data: data, encoding: encoding) }
        let bigEndian = head.first == 0x00
        let explicit: String.Encoding =
            encoding == .utf32
            ? (bigEndian ? .utf32BigEndian : .utf32LittleEndian)
            : (bigEndian ? .utf16BigEndian : .utf16LittleEndian)
        return String(data: data, encoding: explicit)
    }
}
