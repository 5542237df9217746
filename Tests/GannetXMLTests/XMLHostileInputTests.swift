import GannetTestSupport
import GannetXML
import Testing

/// SECURITY-CASES.md 32: hostile XML ends in an error or harmless output, never loads anything,
/// never leaks a file, and never takes more than 50 MB.
///
/// Serialized so each memory measurement sees only its own case.
@Suite("Hostile XML", .serialized)
struct XMLHostileInputTests {
    static let billionLaughs = """
        <?xml version="1.0"?>
        <!DOCTYPE lolz [
          <!ENTITY lol "lol">
          <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
          <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
          <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
          <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
          <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
          <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
          <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
          <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
          <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
        ]>
        <lolz a="&lol9;">&lol9;</lolz>
        """

    /// One 100 KB entity referenced 100,000 times: 10 GB of text from 400 KB of input, and no
    /// nesting for a depth check to catch.
    static let quadraticBlowUp: String = {
        let payload = String(repeating: "a", count: 100_000)
        let references = String(repeating: "&a;", count: 100_000)
        return "<?xml version=\"1.0\"?><!DOCTYPE kaboom [<!ENTITY a \"\(payload)\">]><kaboom>\(references)</kaboom>"
    }()

    static var trusting: XMLParsingOptions {
        var options = XMLParsingOptions()
        options.allowsInternalEntities = true
        return options
    }

    /// Parses with both the event parser and the tree, checking the memory each one takes.
    func expectRefused(
        _ xml: String,
        options: XMLParsingOptions = XMLParsingOptions(),
        code: XMLError.Code,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (eventError, eventBytes) = peakMemoryGrowth { parseError(xml, options: options) }
        #expect(eventError?.code == code, "\(String(describing: eventError))", sourceLocation: sourceLocation)
        #expect(eventBytes < fiftyMegabytes, "event parser took \(eventBytes) bytes", sourceLocation: sourceLocation)
        let (treeError, treeBytes) = peakMemoryGrowth { () -> XMLError? in
            do {
                _ = try XMLDocument.parse(data: Data(xml.utf8), options: options)
                return nil
            } catch {
                return error as? XMLError
            }
        }
        #expect(treeError?.code == code, "\(String(describing: treeError))", sourceLocation: sourceLocation)
        #expect(treeBytes < fiftyMegabytes, "tree took \(treeBytes) bytes", sourceLocation: sourceLocation)
    }

    // MARK: Entity expansion

    @Test func billionLaughsIsRefusedAtItsFirstDeclaration() {
        expectRefused(Self.billionLaughs, code: .entityDeclarationRefused)
    }

    @Test func billionLaughsStopsAtTheExpansionCapWhenEntitiesAreAllowed() {
        expectRefused(Self.billionLaughs, options: Self.trusting, code: .entityExpansionLimitExceeded)
    }

    @Test func quadraticBlowUpIsRefused() {
        expectRefused(Self.quadraticBlowUp, code: .entityDeclarationRefused)
    }

    @Test func quadraticBlowUpStopsAtTheByteCapWhenEntitiesAreAllowed() {
        expectRefused(Self.quadraticBlowUp, options: Self.trusting, code: .entityExpansionLimitExceeded)
    }

    @Test func entityLoopsStop() {
        let loop = "<!DOCTYPE r [<!ENTITY a \"x&b;\"><!ENTITY b \"y&a;\">]><r>&a;</r>"
        expectRefused(loop, code: .entityDeclarationRefused)
        expectRefused(loop, options: Self.trusting, code: .entityExpansionLimitExceeded)
    }

    @Test func internalEntitiesExpandWhenAllowed() throws {
        let xml = """
            <!DOCTYPE r [<!ENTITY co "Gannet &amp; Co"><!ENTITY full "&co; Ltd &#38;#38; &#233;">]>
            <r a="&full;">&full;<b>&co;</b></r>
            """
        let recorded = try events(xml, options: Self.trusting)
        #expect(
            recorded.contains(
                .startElement(
                    name: "r",
                    prefix: nil,
                    namespaceURI: nil,
                    attributes: [XMLAttribute(name: "a", value: "Gannet & Co Ltd & é")],
                    namespaces: []
                )
            )
        )
        #expect(recorded.contains(.characters("Gannet & Co Ltd & é")))
        #expect(recorded.contains(.characters("Gannet & Co")))
        let document = try XMLDocument.parse(data: Data(xml.utf8), options: Self.trusting)
        #expect(document.root?.attribute("a") == "Gannet & Co Ltd & é")
        #expect(document.root?.text == "Gannet & Co Ltd & éGannet & Co")
    }

    @Test func theExpansionCountCapApplies() throws {
        var options = Self.trusting
        options.limits.maximumEntityExpansions = 3
        let xml = "<!DOCTYPE r [<!ENTITY e \"x\">]><r>&e;&e;&e;&e;&e;</r>"
        #expect(parseError(xml, options: options)?.code == .entityExpansionLimitExceeded)
        options.limits.maximumEntityExpansions = 5
        #expect(try events(xml, options: options).contains(.characters("xxxxx")))
    }

    @Test func unparsedAndParameterEntitiesStayRefusedWhenInternalOnesAreAllowed() {
        let unparsed =
            "<!DOCTYPE r [<!NOTATION gif SYSTEM \"image/gif\"><!ENTITY pic SYSTEM \"pic.gif\" NDATA gif>]><r/>"
        #expect(parseError(unparsed, options: Self.trusting)?.code == .entityDeclarationRefused)
        let parameter = "<!DOCTYPE r [<!ENTITY % p \"<!ENTITY x 'y'>\"> %p;]><r>&x;</r>"
        #expect(parseError(parameter)?.code == .entityDeclarationRefused)
        #expect(parseError(parameter, options: Self.trusting)?.code == .entityDeclarationRefused)
    }

    // MARK: External entities and DTDs

    @Test func xxeThroughAFileIsRefusedAndNothingLeaks() throws {
        let passwd = try String(contentsOfFile: "/etc/passwd", encoding: .utf8)
        let marker = try #require(passwd.split(separator: "\n").first.map(String.init))
        let entity = "<!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><r>&x;</r>"
        for options in [XMLParsingOptions(), Self.trusting] {
            let recorder = XMLStreamParser(handler: XMLEventRecorder(), options: options)
            let error = #expect(throws: XMLError.self) { try recorder.parse(Data(entity.utf8)) }
            #expect(error?.code == .entityDeclarationRefused)
            #expect(!allText(recorder.handler.events).contains(marker))
            #expect(error.map { !$0.description.contains(marker) } ?? true)
        }
        // The same file named as the external DTD is not read either; the document parses.
        let dtd = "<!DOCTYPE r SYSTEM \"file:///etc/passwd\"><r>ok</r>"
        let recorded = try events(dtd)
        #expect(recorded.contains(.characters("ok")))
        #expect(!allText(recorded).contains(marker))
        let document = try XMLDocument.parse(data: Data(dtd.utf8))
        #expect(document.root?.text == "ok")
    }

    @Test func nothingExternalIsEverFetched() throws {
        let servers = try TestServers.shared()
        let canary = servers.canaryURL.absoluteString
        let before = try servers.canaryCount()
        let documents = [
            // XXE through http.
            "<!DOCTYPE r [<!ENTITY x SYSTEM \"\(canary)xxe\">]><r>&x;</r>",
            "<!DOCTYPE r [<!ENTITY x PUBLIC \"-//X//Y\" \"\(canary)public\">]><r>&x;</r>",
            // An external DTD, referenced or also used for entities.
            "<!DOCTYPE r SYSTEM \"\(canary)dtd\"><r/>",
            "<!DOCTYPE r SYSTEM \"\(canary)dtd\"><r>&declaredThere;</r>",
            // Parameter entities, external and internal.
            "<!DOCTYPE r [<!ENTITY % remote SYSTEM \"\(canary)pe\"> %remote;]><r/>",
            "<!DOCTYPE r [<!ENTITY % wrapper \"<!ENTITY &#37; inner SYSTEM '\(canary)inner'>\"> %wrapper; %inner;]><r/>",
            "<!DOCTYPE r [%undeclared;]><r/>",
            // XInclude and a stylesheet instruction are just markup here.
            "<r xmlns:xi=\"http://www.w3.org/2001/XInclude\"><xi:include href=\"\(canary)xinclude\" parse=\"text\"/></r>",
            "<?xml-stylesheet type=\"text/xsl\" href=\"\(canary)style.xsl\"?><r/>",
            // A schema location is an attribute like any other.
            "<r xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xsi:schemaLocation=\"urn:r \(canary)schema.xsd\"/>",
        ]
        for options in [XMLParsingOptions(), Self.trusting] {
            for xml in documents {
                _ = parseError(xml, options: options)
                _ = try? XMLDocument.parse(data: Data(xml.utf8), options: options)
            }
        }
        #expect(parseError(documents[0])?.code == .entityDeclarationRefused)
        #expect(parseError(documents[2]) == nil)
        #expect(parseError(documents[4], options: Self.trusting)?.code == .entityDeclarationRefused)
        #expect(try servers.canaryCount() == before)
    }

    // MARK: Nesting, sizes, counts

    @Test(arguments: [1_000, 100_000])
    func deepNestingStopsAtTheDepthLimit(depth: Int) {
        let xml = String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        expectRefused(xml, code: .depthLimitExceeded)
    }

    @Test func theDepthLimitIsExactAndConfigurable() throws {
        func nested(_ depth: Int) -> String {
            String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)
        }
        #expect(try startNames(events(nested(256))).count == 256)
        #expect(parseError(nested(257))?.code == .depthLimitExceeded)
        var options = XMLParsingOptions()
        options.limits.maximumDepth = 10
        #expect(try startNames(events(nested(10), options: options)).count == 10)
        let error = try #require(parseError(nested(11), options: options))
        #expect(error.code == .depthLimitExceeded)
        #expect(error.line == 1)
        // libxml2's own ceiling is 256; a larger setting still fails with the typed error there.
        options.limits.maximumDepth = 1_000
        #expect(parseError(nested(300), options: options)?.code == .depthLimitExceeded)
    }

    @Test func aHugeTextNodeStopsAtTheTextLimit() throws {
        var options = XMLParsingOptions()
        options.limits.maximumTextBytes = 1_000_000
        let (error, bytes) = peakMemoryGrowth { () -> XMLError? in
            let parser = XMLStreamParser(handler: XMLEventRecorder(), options: options)
            let chunk = Data(String(repeating: "x", count: 65_536).utf8)
            do {
                try parser.feed(Data("<a>".utf8))
                for _ in 0..<1_000 { try parser.feed(chunk) }
                try parser.finish()
                return nil
            } catch {
                return error as? XMLError
            }
        }
        #expect(error?.code == .textTooLarge)
        #expect(bytes < fiftyMegabytes)
        #expect(
            parseError("<a><!--\(String(repeating: "c", count: 1_000_001))--></a>", options: options)?.code
                == .textTooLarge
        )
        #expect(
            parseError("<a><![CDATA[\(String(repeating: "c", count: 1_000_001))]]></a>", options: options)?.code
                == .textTooLarge
        )
    }

    @Test func anEndlessCommentOrAttributeIsCutOffInBoundedMemory() {
        for opening in ["<a><!--", "<a b=\"", "<a><![CDATA[", "<", "<?pi "] {
            let (error, bytes) = peakMemoryGrowth { () -> XMLError? in
                let parser = XMLStreamParser(handler: XMLEventRecorder())
                let chunk = Data(String(repeating: "y", count: 65_536).utf8)
                do {
                    try parser.feed(Data(opening.utf8))
                    // 100 MiB of it: libxml2 gives up at 10 MB of one token.
                    for _ in 0..<1_600 { try parser.feed(chunk) }
                    try parser.finish()
                    return nil
                } catch {
                    return error as? XMLError
                }
            }
            #expect(error != nil, "\(opening)")
            #expect(bytes < fiftyMegabytes, "\(opening): \(bytes) bytes")
        }
    }

    @Test func tooManyAttributesIsATypedError() throws {
        let attributes = (0..<10_000).map { " a\($0)=\"v\"" }.joined()
        expectRefused("<r\(attributes)/>", code: .tooManyAttributes)
        var options = XMLParsingOptions()
        options.limits.maximumAttributes = 2
        #expect(try startNames(events("<r a=\"1\" b=\"2\"/>", options: options)) == ["r"])
        #expect(parseError("<r a=\"1\" b=\"2\" c=\"3\"/>", options: options)?.code == .tooManyAttributes)
    }

    @Test func theDocumentSizeLimitApplies() throws {
        var options = XMLParsingOptions()
        options.limits.maximumDocumentBytes = 1_000
        let small = "<r>\(String(repeating: "x", count: 900))</r>"
        #expect(try events(small, options: options).count == 5)
        let parser = XMLStreamParser(handler: XMLEventRecorder(), options: options)
        try parser.feed(Data("<r>".utf8))
        let error = #expect(throws: XMLError.self) {
            for _ in 0..<10 { try parser.feed(Data(String(repeating: "x", count: 200).utf8)) }
        }
        #expect(error?.code == .documentTooLarge)
    }

    @Test func aLargeStreamedDocumentParsesInBoundedMemory() throws {
        var options = XMLParsingOptions()
        options.limits.maximumDocumentBytes = nil
        struct Counter: XMLEventHandler {
            var items = 0
            var textBytes = 0
            mutating func startElement(
                name: String,
                prefix: String?,
                namespaceURI: String?,
                attributes: [XMLAttribute],
                namespaces: [XMLNamespaceDeclaration]
            ) {
                if name == "item" { items += 1 }
            }
            mutating func characters(_ text: String) { textBytes += text.utf8.count }
        }
        // 64 MiB, made on the fly and never in memory at once: more than the memory allowed.
        let item = "<item id=\"42\" kind=\"sample\"><name>Item name</name><value>12.5</value></item>\n"
        let chunk = Data(String(repeating: item, count: (1 << 20) / item.utf8.count).utf8)
        let chunkCount = 64
        let (counter, bytes) = try peakMemoryGrowth { () -> Counter in
            let parser = XMLStreamParser(handler: Counter(), options: options)
            try parser.feed(Data("<feed>".utf8))
            for _ in 0..<chunkCount { try parser.feed(chunk) }
            try parser.feed(Data("</feed>".utf8))
            try parser.finish()
            return parser.handler
        }
        #expect(counter.items == chunkCount * ((1 << 20) / item.utf8.count))
        #expect(bytes < fiftyMegabytes, "\(bytes) bytes")
        #expect(XMLParsingOptions().limits.maximumDocumentBytes == Int64(100 * 1024 * 1024))
    }
}
