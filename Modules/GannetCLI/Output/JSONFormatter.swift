import Foundation

/// Re-indents and colours JSON text token by token, keeping every token as the server wrote
/// it: key order, number spelling and string escapes survive (a parse-and-print round trip
/// would turn `1.0` into `1` and reorder keys).
enum JSONFormatter {
    /// `data` re-indented with four spaces (when `indent`) and coloured by `palette`; `nil`
    /// when it is not JSON, so the caller prints it as it came.
    static func format(_ data: Data, indent: Bool, palette: Palette) -> String? {
        guard (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil else { return nil }
        return format(bytes: [UInt8](data), indent: indent, palette: palette)
    }

    private static let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    private static let delimiters: Set<UInt8> = whitespace.union([
        UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ":"),
    ])

    /// Formats text already known to be valid JSON.
    static func format(bytes: [UInt8], indent: Bool, palette: Palette) -> String {
        var out = ""
        var containers: [UInt8] = []
        var expectingKey = false
        var index = 0
        func newline() {
            if indent { out += "\n" + String(repeating: " ", count: containers.count * 4) }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case _ where whitespace.contains(byte):
                index += 1
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count {
                    if bytes[index] == UInt8(ascii: "\\") {
                        index += 2
                    } else if bytes[index] == UInt8(ascii: "\"") {
                        index += 1
                        break
                    } else {
                        index += 1
                    }
                }
                let text = String(decoding: bytes[start..<min(index, bytes.count)], as: UTF8.self)
                out += containers.last == UInt8(ascii: "{") && expectingKey ? palette.key(text) : palette.string(text)
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = byte == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                var next = index + 1
                while next < bytes.count, whitespace.contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == close {
                    out += String(decoding: [byte, close], as: UTF8.self)
                    index = next + 1
                    expectingKey = false
                    continue
                }
                out += String(decoding: [byte], as: UTF8.self)
                containers.append(byte)
                expectingKey = byte == UInt8(ascii: "{")
                newline()
                index += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                containers.removeLast()
                newline()
                out += String(decoding: [byte], as: UTF8.self)
                expectingKey = false
                index += 1
            case UInt8(ascii: ","):
                out += ","
                newline()
                expectingKey = containers.last == UInt8(ascii: "{")
                index += 1
            case UInt8(ascii: ":"):
                out += indent ? ": " : ":"
                expectingKey = false
                index += 1
            default:
                let start = index
                while index < bytes.count, !delimiters.contains(bytes[index]) { index += 1 }
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                out +=
                    text == "true" || text == "false" || text == "null" ? palette.literal(text) : palette.number(text)
            }
        }
        return out
    }
}
