import BenchKit
import Foundation
import GannetResponseSerialization
import GannetXML

/// Gannet's serializers, called as a session calls them after a transfer.
enum GannetParsers {
    static let jsonResponse = HTTPURLResponse(
        url: URL(string: "http://127.0.0.1/data.json")!,
        statusCode: 200,
        httpVersion: "HTTP/1.1",
        headerFields: ["Content-Type": "application/json"]
    )
    static let xmlResponse = HTTPURLResponse(
        url: URL(string: "http://127.0.0.1/data.xml")!,
        statusCode: 200,
        httpVersion: "HTTP/1.1",
        headerFields: ["Content-Type": "application/xml"]
    )

    /// JSONResponseSerializer: validation, then the JSON tree (`(any Sendable)?`).
    static func json(_ data: Data) {
        do {
            let value = try JSONResponseSerializer().serialize(
                request: nil,
                response: jsonResponse,
                data: data,
                error: nil
            )
            guard value is [String: any Sendable] || value is [any Sendable] else {
                Report.fail("unexpected JSON root")
            }
        } catch {
            Report.fail("JSONResponseSerializer: \(error)")
        }
    }

    /// XMLStreamParser with a handler that keeps what the Foundation delegate keeps.
    static func xmlEvents(_ data: Data) {
        do {
            let handler = try XMLStreamParser.parse(data, handler: CollectingHandler())
            guard handler.elements > 0 else { Report.fail("XMLStreamParser saw no element") }
        } catch {
            Report.fail("XMLStreamParser: \(error)")
        }
    }

    /// The `.xmlDocument` serializer: the whole tree.
    static func xmlDocument(_ data: Data) {
        do {
            let document = try XMLDocumentResponseSerializer().serialize(
                request: nil,
                response: xmlResponse,
                data: data,
                error: nil
            )
            guard document.root != nil else { Report.fail("XMLDocument has no root") }
        } catch {
            Report.fail("XMLDocumentResponseSerializer: \(error)")
        }
    }
}

/// Element names and text, as `CollectingDelegate` keeps them for XMLParser.
struct CollectingHandler: XMLEventHandler {
    var elements = 0
    var names: [String] = []
    var text = ""

    mutating func startElement(
        name: String,
        prefix: String?,
        namespaceURI: String?,
        attributes: [XMLAttribute],
        namespaces: [XMLNamespaceDeclaration]
    ) {
        elements += 1
        names.append(name)
    }

    mutating func characters(_ string: String) {
        text += string
    }
}
