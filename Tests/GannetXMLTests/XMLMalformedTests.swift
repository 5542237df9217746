import GannetXML
import Testing

@Suite("Event parser: malformed input")
struct XMLMalformedTests {
    @Test func mismatchedTagsReportLineAndColumn() throws {
        let error = try #require(parseError("<root>\n  <item>\n    <name>x</nmae>\n  </item>\n</root>"))
        #expect(error.code == .malformed)
        #expect(error.line == 3)
        #expect(error.column > 0)
        #expect(error.message.contains("name"))
        #expect(error.nativeCode == 76)  // XML_ERR_TAG_NAME_MISMATCH
        #expect(error.description.contains("line 3"))
    }

    @Test func aDocumentThatStopsEarlyFailsAtFinish() throws {
        let parser = XMLStreamParser(handler: XMLEventRecorder())
        try parser.feed(Data("<a>\n<b>unfinished".utf8))
        let error = #expect(throws: XMLError.self) { try parser.finish() }
        #expect(error?.code == .malformed)
        #expect(error?.line == 2)
        #expect(parser.handler.events.last != .endDocument)
    }

    @Test(arguments: [
        "just text",
        "<a></a><b></b>",
        "<a>text</a> trailing",
        "<a b='1' b='2'/>",
        "<a attr=unquoted/>",
        "<1a/>",
        "<a>&#0;</a>",
        "<a>\u{1}</a>",
        "<a><![CDATA[unterminated</a>",
        "<a><!-- unterminated</a>",
        "<p:a/>",
        "<a p:b='1'/>",
        "<a xmlns:p=''/>",
    ])
    func malformedDocumentsFailWithATypedError(xml: String) throws {
        let error = try #require(parseError(xml))
        #expect(error.code == .malformed)
        #expect(error.line >= 1)
        #expect(!error.message.isEmpty)
    }

    @Test(arguments: ["", "   \n\t  "])
    func emptyInputIsAnEmptyDocument(xml: String) throws {
        let error = try #require(parseError(xml))
        #expect(error.code == .emptyDocument)
    }

    @Test func anUndeclaredEntityIsATypedError() throws {
        let error = try #require(parseError("<a>&nbsp;</a>"))
        #expect(error.code == .undeclaredEntity)
        // Also when an external DTD (never loaded) might have declared it.
        let xhtml =
            #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html>&nbsp;</html>"#
        #expect(parseError(xhtml)?.code == .undeclaredEntity)
    }

    @Test func errorMessagesStayShort() throws {
        let name = String(repeating: "n", count: 40_000)
        let error = try #require(parseError("<\(name)></x>"))
        #expect(error.message.count <= 300)
    }

    @Test func noEventsAfterTheError() throws {
        let parser = XMLStreamParser(handler: XMLEventRecorder())
        #expect(throws: XMLError.self) { try parser.parse(Data("<a><b></c><d/><e/></a>".utf8)) }
        #expect(startNames(parser.handler.events) == ["a", "b"])
        #expect(parser.handler.error?.code == .malformed)
    }
}
