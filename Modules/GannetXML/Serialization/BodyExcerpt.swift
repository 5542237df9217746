/// Short, single-line renderings of response bodies and headers for error messages, so an
/// error never carries a whole hostile body or a line break from it.
enum BodyExcerpt {
    /// `reason`, then the body's size and its first bytes, within the error message budget.
    static func message(_ reason: String, body: Data?) -> String {
        let head = clip(singleLine(reason), toBytes: 300)
        guard let body, !body.isEmpty else { return head + " — empty body" }
        let lead = "\(head) — body (\(body.count) bytes): "
        let budget = XMLResponseSerializationError.maximumMessageBytes - lead.utf8.count
        let shown = singleLine(String(decoding: body.prefix(max(0, budget)), as: UTF8.self))
        return lead + clip(shown, toBytes: budget)
    }

    /// `text` cut to at most `maximumBytes` of UTF-8, ending in an ellipsis when cut.
    static func clip(_ text: String, toBytes maximumBytes: Int) -> String {
        guard text.utf8.count > maximumBytes else { return text }
        let ellipsis = "…"
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > maximumBytes - ellipsis.utf8.count { break }
            result.append(character)
            used += size
        }
        return result + ellipsis
    }

    /// `text` with line breaks and other control characters escaped.
    static func singleLine(_ text: String) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}":
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
