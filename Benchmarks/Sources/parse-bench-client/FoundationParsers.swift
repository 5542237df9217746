import BenchKit
import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Foundation's parsers, used the way a response serializer would use them.
enum FoundationParsers {
    /// JSONSerialization to a Foundation object tree, as AFJSONResponseSerializer does.
    static func json(_ data: Data) {
        do {
            let object = try JSONSerialization.jsonObject(with: data)
            guard object is [String: Any] || object is [Any] else { Report.fail("unexpected JSON root") }
        } catch {
            Report.fail("JSONSerialization: \(error)")
        }
    }

    /// XMLParser over a stream (`XMLParser(data:)` refuses 10 MB: "Huge input lookup"), with a
    /// delegate that keeps element names and text, the least a document serializer does.
    static func xml(path: String) {
        guard let stream = InputStream(fileAtPath: path) else { Report.fail("cannot open \(path)") }
        let parser = XMLParser(stream: stream)
        let delegate = CollectingDelegate()
        parser.delegate = delegate
        guard parser.parse() else { Report.fail("XMLParser: \(parser.parserError.map { "\($0)" } ?? "failed")") }
        guard delegate.elements > 0 else { Report.fail("XMLParser saw no element") }
    }
}

final class CollectingDelegate: NSObject, XMLParserDelegate {
    var elements = 0
    var names: [String] = []
    var text = ""

    func parser(
        _ parser: XMLParser,
        didStartElement elementName: String,
        namespaceURI: String?,
        qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        elements += 1
        names.append(elementName)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }
}
