/// Short, single-line renderings of response bodies for error messages. A hostile server
/// controls the body, so what reaches a log is bounded and cannot forge extra log lines.
enum BodyExcerpt {
    /// The most bytes of a decoder's reason kept in a message; the rest of the budget goes to
    /// the body excerpt.
    static let maximumReasonBytes = 200

    /// `reason — body (N bytes): excerpt`, at most ``ResponseSerializationError/maximumMessageBytes``.
    static func message(_ reason: String, body: Data?) -> String {
        let head = clip(singleLine(reason), toBytes: maximumReasonBytes)
        guard let body, !body.isEmpty else { return head + " — empty body" }
        let lead = "\(head) — body (\(body.count) bytes): "
        let budget = ResponseSerializationError.maximumMessageBytes - lead.utf8.count
        return lead + render(body, maximumBytes: budget)
    }

    /// The start of `data` as text: invalid UTF-8 becomes U+FFFD, control characters become
    /// escapes, and the result holds at most `maximumBytes` UTF-8 bytes (ending in `…` when cut).
    static func render(_ data: Data, maximumBytes: Int) -> String {
        guard maximumBytes > 0 else { return "" }
        // Never decode more of the body than could be shown.
        let text = String(decoding: data.prefix(maximumBytes), as: UTF8.self)
        let rendered = singleLine(text)
        if data.count <= maximumBytes && rendered.utf8.count <= maximumBytes { return rendered }
        return clip(rendered, toBytes: maximumBytes)
    }

    /// `text` cut at a character boundary so that it holds at most `maximumBytes` UTF-8 bytes,
    /// the last of which are `…` when anything was cut.
    static func clip(_ text: String, toBytes maximumBytes: Int) -> String {
        guard text.utf8.count > maximumBytes else { return text }
        let ellipsis = "…"
        let budget = maximumBytes - ellipsis.utf8.count
        guard budget > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > budget { break }
            result.append(character)
            used += size
        }
        return result + ellipsis
    }

    /// Control characters (including CR and LF) as escapes, so the text stays on one line.
    static func singleLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where isControl(scalar): result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
