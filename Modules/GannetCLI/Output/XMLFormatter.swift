import Gannet
import GannetXML

/// Re-indents and colours XML with GannetXML's event parser (no tree is built; entity and
/// size limits are the parser's). An element holding only text stays on one line; whitespace
/// between elements is replaced by the indentation.
enum XMLFormatter {
    /// `data` re-indented (when `indent`) and coloured; `nil` when it is not well-formed XML, so
    /// the caller prints it as it came.
    static func format(_ data: Data, indent: Bool, palette: Palette) -> String? {
        try? XMLStreamParser.parse(
            data,
            handler: PrettyXMLWriter(indent: indent, palette: palette, declaration: declaration(of: data)),
            options: parsingOptions
        ).output
    }

    /// Whitespace-only text is layout, not content, when re-indenting.
    static var parsingOptions: XMLParsingOptions {
        var options = XMLParsingOptions()
        options.dropsWhitespaceOnlyText = true
        return options
    }

    /// The `<?xml …?>` declaration the document starts with, which the parser does not report.
    static func declaration(of data: Data) -> String? {
        let prefix = data.prefix(256)
        guard prefix.starts(with: Data("<?xml".utf8)), let end = prefix.firstRange(of: Data("?>".utf8)) else {
            return nil
        }
        return String(decoding: prefix[prefix.startIndex..<end.upperBound], as: UTF8.self)
    }
}

/// An ``XMLEventHandler`` that writes the document back, indented by two spaces and coloured.
struct PrettyXMLWriter: XMLEventHandler, Sendable {
    let indent: Bool
    let palette: Palette
    private(set) var output = ""
    /// The start tag of the innermost element, kept open until its first child or its end
    /// shows whether it is empty, holds only text, or holds elements.
    private var pendingStartTag: String?
    private var pendingText = ""
    private var depth = 0

    init(indent: Bool, palette: Palette, declaration: String?) {
        self.indent = indent
        self.palette = palette
        if let declaration { output = palette.comment(declaration) + (indent ? "\n" : "") }
    }

    private func padding(_ level: Int) -> String {
        indent ? String(repeating: "  ", count: level) : ""
    }

    private var newline: String { indent ? "\n" : "" }

    /// Before markup inside the current element: open its start tag for good, and put text that
    /// preceded the markup (mixed content) on a line of its own.
    private mutating func flushBeforeMarkup() {
        if let tag = pendingStartTag {
            output += tag + palette.tag(">") + newline
            pendingStartTag = nil
        }
        let text = indent ? pendingText.trimmingCharacters(in: .whitespacesAndNewlines) : pendingText
        if !text.isEmpty {
            output += padding(depth) + Self.escape(text) + newline
        }
        pendingText = ""
    }

    mutating func startElement(
        name: String,
        prefix: String?,
        namespaceURI: String?,
        attributes: [XMLAttribute],
        namespaces: [XMLNamespaceDeclaration]
    ) {
        flushBeforeMarkup()
        var tag = padding(depth) + palette.tag("<" + Self.qualified(name, prefix))
        for namespace in namespaces {
            let attribute = namespace.prefix.map { "xmlns:" + $0 } ?? "xmlns"
            tag +=
                " " + palette.attributeName(attribute) + "="
                + palette.attributeValue("\"" + Self.escapeAttribute(namespace.uri) + "\"")
        }
        for attribute in attributes {
            tag +=
                " " + palette.attributeName(attribute.qualifiedName) + "="
                + palette.attributeValue("\"" + Self.escapeAttribute(attribute.value) + "\"")
        }
        pendingStartTag = tag
        depth += 1
    }

    mutating func endElement(name: String, prefix: String?, namespaceURI: String?) {
        depth -= 1
        let closing = palette.tag("</" + Self.qualified(name, prefix) + ">")
        let text = indent ? pendingText.trimmingCharacters(in: .whitespacesAndNewlines) : pendingText
        if let tag = pendingStartTag {
            output +=
                text.isEmpty
                ? tag + palette.tag("/>") + newline : tag + palette.tag(">") + Self.escape(text) + closing + newline
            pendingStartTag = nil
        } else {
            if !text.isEmpty { output += padding(depth + 1) + Self.escape(text) + newline }
            output += padding(depth) + closing + newline
        }
        pendingText = ""
    }

    mutating func characters(_ text: String) {
        pendingText += text
    }

    mutating func cdata(_ text: String) {
        pendingText += text
    }

    mutating func comment(_ text: String) {
        flushBeforeMarkup()
        output += padding(depth) + palette.comment("<!--" + text + "-->") + newline
    }

    mutating func processingInstruction(target: String, data: String) {
        flushBeforeMarkup()
        output += padding(depth) + palette.comment("<?" + target + (data.isEmpty ? "" : " " + data) + "?>") + newline
    }

    static func qualified(_ name: String, _ prefix: String?) -> String {
        prefix.map { $0 + ":" + name } ?? name
    }

    /// By Unicode scalar: `replacingOccurrences` compares `Character`s and missed a `<` or `"`
    /// followed by a combining mark.
    static func escape(_ text: String, quotes: Bool = false) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped.append(contentsOf: "&amp;".unicodeScalars)
            case "<": escaped.append(contentsOf: "&lt;".unicodeScalars)
            case ">": escaped.append(contentsOf: "&gt;".unicodeScalars)
            case "\"" where quotes: escaped.append(contentsOf: "&quot;".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    static func escapeAttribute(_ text: String) -> String {
        escape(text, quotes: true)
    }
}
