/// The RFC 9110 grammar behind ``MediaType``, over UTF-8 bytes:
///
/// ```
/// media-type = type "/" subtype parameters
/// parameters = *( OWS ";" OWS [ parameter ] )
/// parameter  = parameter-name "=" parameter-value
/// parameter-value = ( token / quoted-string )
/// ```
/// https://www.rfc-editor.org/rfc/rfc9110.html#name-media-type
package enum MediaTypeParser {
    package static func parse(_ text: Substring) -> MediaType? {
        simple(text) ?? scan(text)
    }

    /// `type/subtype` in lower case with nothing around it, what nearly every `Content-Type`
    /// is, read without copying the bytes or lowercasing; `nil` for anything else (spaces,
    /// parameters, capitals, a wildcard), which ``scan(_:)`` reads with the same result
    /// (`MediaTypeFastPathTests`).
    static func simple(_ text: Substring) -> MediaType? {
        // Read in place: a substring's `utf8.indices` cost more than the whole check.
        text.utf8.withContiguousStorageIfAvailable(simple) ?? nil
    }

    /// ``simple(_:)`` over the bytes of a value.
    static func simple(_ bytes: UnsafeBufferPointer<UInt8>) -> MediaType? {
        // The slash's offset; `nil` when a byte is not a lower-case token byte or the slash does
        // not split two non-empty parts.
        var slash: Int?
        for offset in bytes.indices {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "/"), slash == nil {
                slash = offset
            } else if byte == UInt8(ascii: "*") || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || !HTTPSyntax.isTokenByte(byte)
            {
                return nil
            }
        }
        guard let slash, slash > 0, slash < bytes.count - 1 else { return nil }
        return MediaType(
            checkedType: String(decoding: UnsafeBufferPointer(rebasing: bytes[..<slash]), as: UTF8.self),
            subtype: String(decoding: UnsafeBufferPointer(rebasing: bytes[(slash + 1)...]), as: UTF8.self),
            parameters: [:]
        )
    }

    /// The whole grammar, byte by byte.
    static func scan(_ text: Substring) -> MediaType? {
        var scanner = Scanner(bytes: Array(text.utf8))
        scanner.skipWhitespace()
        guard let type = scanner.token(), scanner.consume(UInt8(ascii: "/")),
            let subtype = scanner.token()
        else { return nil }
        // `*/json` names nothing: only `*/*` may wildcard the type.
        if type == "*" && subtype != "*" { return nil }
        scanner.skipWhitespace()
        // `application/json/x` or `text/plain html` is not a media type.
        guard scanner.isAtEnd || scanner.peek == UInt8(ascii: ";") else { return nil }
        var parameters: [String: String] = [:]
        while !scanner.isAtEnd {
            // Anything but `;` after a parameter is malformed, not the start of a new one.
            guard scanner.consume(UInt8(ascii: ";")) else {
                scanner.skip(until: UInt8(ascii: ";"))
                continue
            }
            scanner.skipWhitespace()
            guard let name = scanner.token(), scanner.consume(UInt8(ascii: "=")),
                let value = scanner.quotedString() ?? scanner.token()
            else {
                // Lenient like WHATWG MIME Sniffing: drop this parameter, keep the rest.
                scanner.skip(until: UInt8(ascii: ";"))
                continue
            }
            scanner.skipWhitespace()
            let key = name.lowercased()
            // The first occurrence wins, as in WHATWG MIME Sniffing.
            if parameters[key] == nil { parameters[key] = value }
        }
        return MediaType(checkedType: type.lowercased(), subtype: subtype.lowercased(), parameters: parameters)
    }

    /// The last valid media type of a possibly comma-joined `Content-Type` value, skipping
    /// `*/*` (WHATWG Fetch, "extract a MIME type").
    package static func parseContentType(_ header: String) -> MediaType? {
        // One value and no quoted-string, nearly every response: nothing to split. Searched in
        // the string's own storage: through `String.UTF8View`'s indices the search cost about
        // 40 instructions a byte (callgrind, docs/performance.md).
        let isSplit = { (byte: UInt8) in byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") }
        if !(header.utf8.withContiguousStorageIfAvailable { $0.contains(where: isSplit) }
            ?? header.utf8.contains(where: isSplit))
        {
            guard let type = parse(header[...]), !type.isWildcard else { return nil }
            return type
        }
        var result: MediaType?
        for value in splitOutsideQuotes(header, at: UInt8(ascii: ",")) {
            if let type = parse(value), !type.isWildcard { result = type }
        }
        return result
    }

    /// The answer of `parseContentType(_ header: String)` for a `Content-Type` value's bytes:
    /// the plain `type/subtype` of nearly every response is read in place, with no `String`
    /// made of the value (validating a JSON response: 3,785 instructions, then 2,135, callgrind,
    /// docs/performance.md); any other value is decoded as UTF-8 and read as a `String`.
    package static func parseContentType(_ bytes: UnsafeBufferPointer<UInt8>) -> MediaType? {
        // `simple` never answers `*/*`, and a value with a comma or a quote is never simple.
        simple(bytes) ?? parseContentType(String(decoding: bytes, as: UTF8.self))
    }

    /// `text` split at `separator` bytes that are not inside a quoted-string.
    package static func splitOutsideQuotes(_ text: String, at separator: UInt8) -> [Substring] {
        var parts: [Substring] = []
        var start = text.utf8.startIndex
        var quoted = false
        var escaped = false
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            if escaped {
                escaped = false
            } else if quoted && byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == separator && !quoted {
                parts.append(text[start..<index])
                start = text.utf8.index(after: index)
            }
        }
        parts.append(text[start...])
        return parts
    }

    package static func isToken(_ text: String) -> Bool { HTTPSyntax.isToken(text) }

    /// `value` as a quoted-string. Escapes by Unicode scalar, as the parser reads bytes: a
    /// quote followed by a combining mark is one `Character` that is not `"`, so escaping by
    /// `Character` left that quote bare and the description no longer parsed back (found by
    /// the media-type fuzz target, docs/reliability.md).
    package static func quoted(_ value: String) -> String {
        var result = String.UnicodeScalarView()
        result.append("\"")
        for scalar in value.unicodeScalars {
            if scalar == "\"" || scalar == "\\" { result.append("\\") }
            result.append(scalar)
        }
        result.append("\"")
        return String(result)
    }

    struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var isAtEnd: Bool { index == bytes.count }
        var peek: UInt8? { isAtEnd ? nil : bytes[index] }

        mutating func skipWhitespace() {
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\t") {
                index += 1
            }
        }

        mutating func consume(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func token() -> String? {
            let start = index
            while index < bytes.count, HTTPSyntax.isTokenByte(bytes[index]) { index += 1 }
            guard index > start else { return nil }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        }

        /// A quoted-string with its backslash escapes resolved; `nil` (and nothing consumed) when
        /// the next byte is not a quote or the string never closes.
        mutating func quotedString() -> String? {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
            var cursor = index + 1
            var value: [UInt8] = []
            while cursor < bytes.count {
                let byte = bytes[cursor]
                if byte == UInt8(ascii: "\"") {
                    index = cursor + 1
                    return String(decoding: value, as: UTF8.self)
                }
                if byte == UInt8(ascii: "\\"), cursor + 1 < bytes.count {
                    cursor += 1
                }
                value.append(bytes[cursor])
                cursor += 1
            }
            return nil
        }

        /// Moves to the next `byte` (not past it); to the end when there is none.
        mutating func skip(until byte: UInt8) {
            while index < bytes.count, bytes[index] != byte { index += 1 }
        }
    }
}

extension MediaType {
    /// `*/*`, compared by part: building ``essence`` to compare it joins two strings.
    fileprivate var isWildcard: Bool { type == "*" && subtype == "*" }
}
