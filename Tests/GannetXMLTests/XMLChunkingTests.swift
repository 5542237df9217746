import GannetXML
import Testing

@Suite("Event parser: input split anywhere")
struct XMLChunkingTests {
    static let document = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE r [<!ELEMENT r ANY>]>
        <r xmlns="urn:r" xmlns:p="urn:p" p:a="1 &amp; 2">
          <p:e k='v&#233;'>café &lt;3 😀</p:e><![CDATA[ <raw> ]]><!-- c --><?pi d?>
          <empty/>tail\r\nline
        </r>
        """

    @Test func everySplitPointGivesTheSameEvents() throws {
        let bytes = Array(Self.document.utf8)
        let expected = try events(bytes)
        #expect(expected.count > 10)
        for split in 0...bytes.count {
            let parser = XMLStreamParser(handler: XMLEventRecorder())
            try parser.feed(bytes[..<split])
            try parser.feed(bytes[split...])
            try parser.finish()
            #expect(parser.handler.events == expected, "split at \(split)")
        }
    }

    @Test func byteByByteFeedingGivesTheSameEvents() throws {
        let bytes = Array(Self.document.utf8)
        let parser = XMLStreamParser(handler: XMLEventRecorder())
        for byte in bytes { try parser.feed([byte]) }
        try parser.finish()
        #expect(parser.handler.events == (try events(bytes)))
    }

    @Test func utf16FedByteByByteGivesTheSameEvents() throws {
        let text = #"<?xml version="1.0" encoding="UTF-16"?><r a="é">😀 text</r>"#
        let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let parser = XMLStreamParser(handler: XMLEventRecorder())
        for byte in bytes { try parser.feed([byte]) }
        try parser.finish()
        #expect(parser.handler.events == (try events(bytes)))
        #expect(parser.handler.events.contains(.characters("😀 text")))
    }

    @Test func aMalformedDocumentFailsAtTheSamePlaceWhateverTheSplit() throws {
        let bytes = Array("<a>\n  <b>text</c>\n</a>".utf8)
        let whole = try #require(parseError(bytes))
        for split in 0...bytes.count {
            let parser = XMLStreamParser(handler: XMLEventRecorder())
            let error = #expect(throws: XMLError.self) {
                try parser.feed(bytes[..<split])
                try parser.feed(bytes[split...])
                try parser.finish()
            }
            #expect(error?.line == whole.line, "split at \(split)")
            #expect(error?.code == .malformed)
        }
    }
}
