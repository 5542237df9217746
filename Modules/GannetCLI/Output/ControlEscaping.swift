/// Makes text from the network safe to print: a header value or a file name chosen by a
/// server must not move the cursor, retitle the window or recolour the terminal, so every
/// control character is printed as a visible escape.
///
/// C0 controls and DEL become `\x1b`-style escapes (`\t`, `\r`, `\n` for the common ones),
/// C1 controls (U+0080–U+009F, which some terminals obey like ESC sequences) and the Unicode
/// bidirectional overrides and isolates (which reorder what is shown) become `\u{202e}`-style
/// escapes. Everything else, other non-ASCII text included, is printed as it is.
enum ControlEscaping {
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            switch scalar.value {
            case 0x09: result += "\\t"
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x00...0x1F, 0x7F: result += "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2)
            default: result += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return result
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        // LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI.
        case 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }
}
