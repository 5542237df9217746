import Foundation

/// One `ITEM` of httpie's grammar, after `URL`:
///
/// | Item | Meaning |
/// |---|---|
/// | `Header:Value` | a request header; `Header:` removes a default header |
/// | `Header;` | a header with an empty value |
/// | `name==value` | a query parameter |
/// | `name=value` | a JSON string field, or a form field with `--form` |
/// | `name:=json` | a raw JSON field (`n:=3`, `tags:='["a"]'`) |
/// | `name=@file` / `name:=@file` | a string / raw JSON field read from a file |
/// | `name@file` | a file part (`--form`/`--multipart`); `name@file;type=text/csv` sets its type |
/// | `@file` | the file is the whole body, streamed (httpie's "request data from a filename") |
///
/// A backslash escapes a separator character: `a\:b:c` is the header `a:b` with value `c`.
enum RequestItem: Equatable, Sendable {
    case header(name: String, value: String)
    case removeHeader(name: String)
    case query(name: String, value: String)
    case dataString(name: String, value: String)
    case dataStringFromFile(name: String, path: String)
    case rawJSON(name: String, json: String)
    case rawJSONFromFile(name: String, path: String)
    case file(name: String, path: String, mimeType: String?)
    case bodyFile(path: String)

    /// Whether the item is a field of the body (and so makes the default method `POST`).
    var isData: Bool {
        switch self {
        case .header, .removeHeader, .query, .bodyFile: return false
        default: return true
        }
    }

    /// The separators, longest first so that at one position the longest wins.
    private static let separators = [":=@", "==", "=@", ":=", ":", ";", "=", "@"]
    /// Characters a backslash escapes.
    private static let special: Set<Character> = [":", ";", "=", "@", "\\"]

    /// Parses `text`. The separator that starts first wins; at the same position, the longest
    /// (httpie's rule), so `a:=1` is raw JSON and `url==http://x` a query parameter.
    static func parse(_ text: String) throws -> RequestItem {
        let tokens = tokenize(text)
        for (index, token) in tokens.enumerated() where !token.escaped {
            var best: (position: String.Index, separator: String)?
            for separator in separators {
                guard let range = token.text.range(of: separator) else { continue }
                if best == nil || range.lowerBound < best!.position {
                    best = (range.lowerBound, separator)
                }
            }
            guard let (position, separator) = best else { continue }
            let key = tokens[..<index].map(\.text).joined() + token.text[..<position]
            let value =
                token.text[token.text.index(position, offsetBy: separator.count)...]
                + tokens[(index + 1)...].map(\.text).joined()
            return try make(key: key, separator: separator, value: String(value), original: text)
        }
        throw CLIError.usage(
            "\(text.debugDescription) is not a request item (Header:Value, name==value, name=value, name:=json or name@file)"
        )
    }

    private static func make(key: String, separator: String, value: String, original: String) throws -> RequestItem {
        if key.isEmpty, separator == "@" {
            guard !value.isEmpty else { throw CLIError.usage("\(original.debugDescription): @ needs a file name") }
            return .bodyFile(path: value)
        }
        if key.isEmpty, separator != ":" {
            throw CLIError.usage("\(original.debugDescription) has no name before \(separator)")
        }
        switch separator {
        case ":":
            guard !key.isEmpty else { throw CLIError.usage("\(original.debugDescription) has no header name") }
            return value.isEmpty ? .removeHeader(name: key) : .header(name: key, value: value)
        case ";":
            guard value.isEmpty else {
                throw CLIError.usage("\(original.debugDescription): a header with an empty value is written Name;")
            }
            return .header(name: key, value: "")
        case "==": return .query(name: key, value: value)
        case "=": return .dataString(name: key, value: value)
        case "=@": return .dataStringFromFile(name: key, path: value)
        case ":=": return .rawJSON(name: key, json: value)
        case ":=@": return .rawJSONFromFile(name: key, path: value)
        default:
            if let typeRange = value.range(of: ";type=") {
                return .file(
                    name: key,
                    path: String(value[..<typeRange.lowerBound]),
                    mimeType: String(value[typeRange.upperBound...])
                )
            }
            return .file(name: key, path: value, mimeType: nil)
        }
    }

    /// Splits `text` at backslash escapes: an escaped separator character is its own token,
    /// which no separator search looks into. A backslash before any other character stays.
    private static func tokenize(_ text: String) -> [(text: String, escaped: Bool)] {
        var tokens: [(text: String, escaped: Bool)] = []
        var current = ""
        var iterator = text.makeIterator()
        while let character = iterator.next() {
            guard character == "\\" else {
                current.append(character)
                continue
            }
            guard let next = iterator.next() else {
                current.append(character)
                break
            }
            if special.contains(next) {
                if !current.isEmpty { tokens.append((current, false)) }
                tokens.append((String(next), true))
                current = ""
            } else {
                current.append(character)
                current.append(next)
            }
        }
        if !current.isEmpty || tokens.isEmpty { tokens.append((current, false)) }
        return tokens
    }
}
