import GannetXML
import Testing

/// AFXMLDocumentResponseSerializerTests' and AFXMLParserResponseSerializerTests'
/// `…CanBeCopied`: the XML serializers are values, so a copy keeps every setting and changing
/// the copy leaves the original alone.
@Suite("XML response serializers copy as values")
struct XMLSerializerCopyTests {
    @Test func theDocumentSerializerCopiesAsAValue() throws {
        var original = XMLDocumentResponseSerializer()
        original.acceptableStatusCodes = IndexSet(integer: 203)
        original.acceptableContentTypes = ["application/x-gannet+xml"]
        var copy = original
        #expect(copy.acceptableStatusCodes == IndexSet(integer: 203))
        #expect(copy.acceptableContentTypes == ["application/x-gannet+xml"])
        copy.acceptableContentTypes = nil
        copy.emptyResponseCodes = []
        #expect(original.acceptableContentTypes == ["application/x-gannet+xml"])
        #expect(original.emptyResponseCodes == XMLDocumentResponseSerializer.defaultEmptyResponseCodes)
    }

    @Test func theParserSerializerCopiesAsAValue() throws {
        var original: XMLParserResponseSerializer<XMLEventRecorder, XMLEventRecorder> = .xmlParser {
            XMLEventRecorder()
        }
        original.acceptableStatusCodes = IndexSet(integer: 203)
        var copy = original
        #expect(copy.acceptableStatusCodes == IndexSet(integer: 203))
        #expect(copy.acceptableContentTypes == original.acceptableContentTypes)
        copy.acceptableStatusCodes = IndexSet(integer: 200)
        copy.acceptableContentTypes = ["text/xml"]
        #expect(original.acceptableStatusCodes == IndexSet(integer: 203))
        #expect(original.acceptableContentTypes != ["text/xml"])
        // Both still parse, each with its own settings.
        let url = URL(string: "http://127.0.0.1/feed")!
        let response = HTTPURLResponse(
            url: url,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": "text/xml"]
        )
        let body = Data("<r/>".utf8)
        #expect(try copy.serialize(request: nil, response: response, data: body, error: nil).events.isEmpty == false)
        #expect(throws: (any Error).self) {
            try original.serialize(request: nil, response: response, data: body, error: nil)
        }
    }
}
