import Gannet
import GannetXML

/// `--as xml`: the body read by GannetXML's event serializer (`XMLParserResponseSerializer`),
/// which validates the response and parses the document with its entity and size limits; the
/// handler writes it back re-indented and coloured when pretty, and the raw body is printed
/// otherwise.
enum XMLInterpretation {
    static func render(
        _ data: Data,
        request: URLRequest,
        response: HTTPURLResponse,
        renderer: BodyRenderer
    ) throws -> Data {
        let pretty = renderer.pretty
        let palette = renderer.palette
        let declaration = XMLFormatter.declaration(of: data)
        var serializer = XMLParserResponseSerializer(
            options: XMLFormatter.parsingOptions,
            makeHandler: { PrettyXMLWriter(indent: pretty.format, palette: palette, declaration: declaration) },
            result: { $0.output }
        )
        // Every status is printed and the content type is the user's call: --as says how to read it.
        serializer.acceptableStatusCodes = IndexSet(integersIn: 100..<600)
        serializer.acceptableContentTypes = nil
        serializer.emptyResponseCodes = Set(100..<600)
        let formatted = try serializer.serialize(request: request, response: response, data: data, error: nil)
        return pretty == .none ? data : Data(formatted.utf8)
    }
}
