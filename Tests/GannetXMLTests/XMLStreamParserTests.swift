import GannetXML
import Testing

@Suite("Event parser: well-formed documents")
struct XMLStreamParserTests {
    @Test func deliversEventsInDocumentOrder() throws {
        let recorded = try events(#"<?xml version="1.0"?><a><b x="1">text</b><c/><!--note--><?pi some data?></a>"#)
        #expect(
            recorded == [
                .startDocument,
                .startElement(name: "a", prefix: nil, namespaceURI: nil, attributes: [], namespaces: []),
                .startElement(
                    name: "b",
                    prefix: nil,
                    namespaceURI: nil,
                    attributes: [XMLAttribute(name: "x", value: "1")],
                    namespaces: []
                ),
                .characters("text"),
                .endElement(name: "b", prefix: nil, namespaceURI: nil),
                .startElement(name: "c", prefix: nil, namespaceURI: nil, attributes: [], namespaces: []),
                .endElement(name: "c", prefix: nil, namespaceURI: nil),
                .comment("note"),
                .processingInstruction(target: "pi", data: "some data"),
                .endElement(name: "a", prefix: nil, namespaceURI: nil),
                .endDocument,
            ]
        )
    }

    @Test func resolvesNamespacesAndPrefixes() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:g="urn:gannet" g:version="2">\
            <g:entry g:id="7" plain="p"><title>T</title><bare xmlns="">x</bare></g:entry></feed>
            """
        let recorded = try events(xml)
        #expect(
            recorded[1]
                == .startElement(
                    name: "feed",
                    prefix: nil,
                    namespaceURI: "http://www.w3.org/2005/Atom",
                    attributes: [XMLAttribute(name: "version", prefix: "g", namespaceURI: "urn:gannet", value: "2")],
                    namespaces: [
                        XMLNamespaceDeclaration(prefix: nil, uri: "http://www.w3.org/2005/Atom"),
                        XMLNamespaceDeclaration(prefix: "g", uri: "urn:gannet"),
                    ]
                )
        )
        #expect(
            recorded[2]
                == .startElement(
                    name: "entry",
                    prefix: "g",
                    namespaceURI: "urn:gannet",
                    attributes: [
                        XMLAttribute(name: "id", prefix: "g", namespaceURI: "urn:gannet", value: "7"),
                        // An unprefixed attribute is in no namespace, whatever the default namespace is.
                        XMLAttribute(name: "plain", value: "p"),
                    ],
                    namespaces: []
                )
        )
        #expect(
            recorded[3]
                == .startElement(
                    name: "title",
                    prefix: nil,
                    namespaceURI: "http://www.w3.org/2005/Atom",
                    attributes: [],
                    namespaces: []
                )
        )
        #expect(
            recorded[6]
                == .startElement(
                    name: "bare",
                    prefix: nil,
                    namespaceURI: nil,
                    attributes: [],
                    namespaces: [XMLNamespaceDeclaration(prefix: nil, uri: "")]
                )
        )
        #expect(recorded[8] == .endElement(name: "bare", prefix: nil, namespaceURI: nil))
        #expect(recorded[9] == .endElement(name: "entry", prefix: "g", namespaceURI: "urn:gannet"))
        #expect(XMLAttribute(name: "id", prefix: "g", value: "7").qualifiedName == "g:id")
    }

    @Test func theXMLPrefixIsAlwaysBound() throws {
        let recorded = try events(#"<a xml:lang="fr"/>"#)
        #expect(
            recorded[1]
                == .startElement(
                    name: "a",
                    prefix: nil,
                    namespaceURI: nil,
                    attributes: [
                        XMLAttribute(
                            name: "lang",
                            prefix: "xml",
                            namespaceURI: "http://www.w3.org/XML/1998/namespace",
                            value: "fr"
                        )
                    ],
                    namespaces: []
                )
        )
    }

    @Test func deliversCDATAUnescapedAndSeparateFromText() throws {
        let recorded = try events("<a>before<![CDATA[<not> &amp; markup]]>after<![CDATA[]]></a>")
        #expect(
            recorded[2...5] == [
                .characters("before"), .cdata("<not> &amp; markup"), .characters("after"), .cdata(""),
            ]
        )
    }

    @Test func replacesPredefinedEntitiesAndCharacterReferences() throws {
        let xml =
            #"<a t="&lt;&amp;&gt;&quot;&apos; &#233;&#xE9;&#x1F600; &#38;#38;">&lt;&amp;&gt;&quot;&apos; &#233;&#xE9;&#x1F600;</a>"#
        let recorded = try events(xml)
        #expect(
            recorded[1]
                == .startElement(
                    name: "a",
                    prefix: nil,
                    namespaceURI: nil,
                    attributes: [XMLAttribute(name: "t", value: "<&>\"' éé😀 &#38;")],
                    namespaces: []
                )
        )
        #expect(recorded[2] == .characters("<&>\"' éé😀"))
    }

    @Test func normalizesAttributeWhitespaceAndKeepsTextWhitespace() throws {
        let recorded = try events("<a v=\"x\ty\nz\">\n  two  lines\r\n</a>")
        #expect(
            recorded[1]
                == .startElement(
                    name: "a",
                    prefix: nil,
                    namespaceURI: nil,
                    attributes: [XMLAttribute(name: "v", value: "x y z")],
                    namespaces: []
                )
        )
        // XML 1.0 §2.11: CR LF becomes LF.
        #expect(recorded[2] == .characters("\n  two  lines\n"))
    }

    @Test func coalescesTextIntoOneEventPerRun() throws {
        let long = String(repeating: "line of text\n", count: 5_000)
        let recorded = try events("<a>\(long)&amp;\(long)</a>")
        #expect(recorded[2] == .characters(long + "&" + long))
        #expect(recorded.count == 5)
    }

    @Test func dropsWhitespaceOnlyTextOnRequest() throws {
        var options = XMLParsingOptions()
        options.dropsWhitespaceOnlyText = true
        let recorded = try events("<a>\n  <b> x </b>\n  <c>\t</c>\n</a>", options: options)
        #expect(!recorded.contains(.characters("\n  ")))
        #expect(recorded.contains(.characters(" x ")))
        #expect(!recorded.contains(.characters("\t")))
        let kept = try events("<a>\n  <b/>\n</a>")
        #expect(kept.contains(.characters("\n  ")))
    }

    @Test func anExternalDTDIsIgnoredAndTheDocumentStillParses() throws {
        let recorded = try events(
            #"<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html/>"#
        )
        #expect(startNames(recorded) == ["html"])
    }

    @Test func anInternalSubsetWithoutEntitiesIsAccepted() throws {
        let recorded = try events(
            "<!DOCTYPE a [<!ELEMENT a (#PCDATA)><!ATTLIST a v CDATA #IMPLIED><!-- dtd comment -->]><a>x</a>"
        )
        #expect(startNames(recorded) == ["a"])
        // Comments inside the DTD are not document content.
        #expect(!recorded.contains(.comment(" dtd comment ")))
    }

    @Test func commentsAndInstructionsOutsideTheRootAreDelivered() throws {
        let recorded = try events("<?xml version='1.0'?><!--before--><?style a?><r/><!--after-->")
        #expect(recorded.contains(.comment("before")))
        #expect(recorded.contains(.processingInstruction(target: "style", data: "a")))
        #expect(recorded.contains(.comment("after")))
    }

    @Test func parsesFromAnInputStream() throws {
        let xml = Data("<list>\(String(repeating: "<item>value</item>", count: 20_000))</list>".utf8)
        let parser = XMLStreamParser(handler: XMLEventRecorder())
        try parser.parse(stream: InputStream(data: xml))
        #expect(startNames(parser.handler.events).count == 20_001)
        #expect(parser.handler.events.last == .endDocument)
    }

    @Test func parsesNonContiguousData() throws {
        let parts = ["<a><b>he", "llo</b>", "<c/></a>"]
        var dispatchData = DispatchData.empty
        for part in parts {
            part.utf8.withContiguousStorageIfAvailable { dispatchData.append(UnsafeRawBufferPointer($0)) }
        }
        #expect(dispatchData.regions.count == 3)
        let recorded = try XMLStreamParser.parse(dispatchData, handler: XMLEventRecorder()).events
        #expect(recorded == (try events(parts.joined())))
    }

    @Test func aHandlerErrorStopsTheParseAndIsRethrown() throws {
        struct Stop: Error {}
        struct StopAtSecond: XMLEventHandler {
            var seen: [String] = []
            mutating func startElement(
                name: String,
                prefix: String?,
                namespaceURI: String?,
                attributes: [XMLAttribute],
                namespaces: [XMLNamespaceDeclaration]
            ) throws {
                seen.append(name)
                if seen.count == 2 { throw Stop() }
            }
        }
        let parser = XMLStreamParser(handler: StopAtSecond())
        #expect(throws: Stop.self) { try parser.parse(Data("<a><b><c/></b></a>".utf8)) }
        #expect(parser.handler.seen == ["a", "b"])
        // The parser is done: later calls throw the same error again.
        #expect(throws: Stop.self) { try parser.feed(Data("<d/>".utf8)) }
    }

    @Test func feedingAfterFinishIsAnInvalidState() throws {
        let parser = XMLStreamParser(handler: XMLEventRecorder())
        try parser.parse(Data("<a/>".utf8))
        let error = #expect(throws: XMLError.self) { try parser.feed(Data("<b/>".utf8)) }
        #expect(error?.code == .invalidState)
    }

    @Test func feedingFromInsideACallbackIsAnInvalidState() throws {
        final class Box { var parser: XMLStreamParser<Reentrant>? }
        struct Reentrant: XMLEventHandler {
            let box: Box
            var caught: XMLError?
            mutating func startElement(
                name: String,
                prefix: String?,
                namespaceURI: String?,
                attributes: [XMLAttribute],
                namespaces: [XMLNamespaceDeclaration]
            ) {
                do { try box.parser?.feed(Data("<x/>".utf8)) } catch { caught = error as? XMLError }
            }
        }
        let box = Box()
        let parser = XMLStreamParser(handler: Reentrant(box: box))
        box.parser = parser
        try parser.parse(Data("<a/>".utf8))
        #expect(parser.handler.caught?.code == .invalidState)
        box.parser = nil
    }

    @Test func theHandlerHearsAboutTheErrorOnce() throws {
        struct Listener: XMLEventHandler {
            var errors: [XMLError] = []
            mutating func parseErrorOccurred(_ error: XMLError) { errors.append(error) }
        }
        let parser = XMLStreamParser(handler: Listener())
        #expect(throws: XMLError.self) { try parser.parse(Data("<a><b></a>".utf8)) }
        #expect(throws: XMLError.self) { try parser.finish() }
        #expect(parser.handler.errors.count == 1)
        #expect(parser.handler.errors.first?.code == .malformed)
    }
}
