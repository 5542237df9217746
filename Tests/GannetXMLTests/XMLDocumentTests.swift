import GannetXML
import Testing

@Suite("Document tree")
struct XMLDocumentTests {
    static let slideshow = """
        <?xml version='1.0' encoding='us-ascii'?>
        <!--  A SAMPLE set of slides  -->
        <slideshow title="Sample Slide Show" date="Date of publication" author="Yours Truly">
            <!-- TITLE SLIDE -->
            <slide type="all">
              <title>Wake up to WonderWidgets!</title>
            </slide>
            <!-- OVERVIEW -->
            <slide type="all">
                <title>Overview</title>
                <item>Why <em>WonderWidgets</em> are great</item>
                <item/>
                <item>Who <em>buys</em> WonderWidgets</item>
            </slide>
        </slideshow>
        """

    @Test func buildsElementsAttributesAndText() throws {
        let document = try XMLDocument.parse(data: Data(Self.slideshow.utf8))
        let root = try #require(document.root)
        #expect(root.name == "slideshow")
        #expect(root.prefix == nil && root.namespaceURI == nil)
        #expect(root.attribute("title") == "Sample Slide Show")
        #expect(root.attribute("missing") == nil)
        #expect(root.attributes.map(\.name) == ["title", "date", "author"])
        #expect(root.elements.count == 2)
        #expect(root.elements(named: "slide").map { $0.attribute("type") } == ["all", "all"])
        #expect(document.element(at: "slideshow/slide/title")?.text == "Wake up to WonderWidgets!")
        #expect(root.element(at: "slide/item")?.text == "Why WonderWidgets are great")
        #expect(root.descendants(named: "item").count == 3)
        #expect(root.descendants(named: "em").map(\.text) == ["WonderWidgets", "buys"])
        #expect(root.elements(named: "slide")[1].elements(named: "item")[1].children.isEmpty)
        #expect(document.outsideRoot == [.comment("  A SAMPLE set of slides  ")])
    }

    @Test func keepsMixedContentInOrder() throws {
        let document = try XMLDocument.parse(
            data: Data("<p>Hello <b>bold</b> world<![CDATA[ <x> ]]><!--c--><?t d?></p>".utf8)
        )
        let paragraph = try #require(document.root)
        let bold = try #require(paragraph.element(named: "b"))
        #expect(
            paragraph.children == [
                .text("Hello "), .element(bold), .text(" world"), .cdata(" <x> "), .comment("c"),
                .processingInstruction(target: "t", data: "d"),
            ]
        )
        #expect(paragraph.text == "Hello bold world <x> ")
        #expect(bold.parent == paragraph)
        #expect(paragraph.parent == nil)
    }

    @Test func resolvesNamespacesForElementsAndAttributes() throws {
        let xml = """
            <feed xmlns="http://www.w3.org/2005/Atom" xmlns:media="http://search.yahoo.com/mrss/">\
            <entry><title>One</title><media:thumbnail url="a.png" media:width="10"/></entry>\
            <entry><title>Two</title></entry></feed>
            """
        let document = try XMLDocument.parse(data: Data(xml.utf8))
        let root = try #require(document.root)
        #expect(root.namespaceURI == "http://www.w3.org/2005/Atom")
        #expect(
            root.namespaceDeclarations == [
                XMLNamespaceDeclaration(prefix: nil, uri: "http://www.w3.org/2005/Atom"),
                XMLNamespaceDeclaration(prefix: "media", uri: "http://search.yahoo.com/mrss/"),
            ]
        )
        let atom = "http://www.w3.org/2005/Atom"
        #expect(root.elements(named: "entry", namespaceURI: atom).count == 2)
        #expect(root.elements(named: "entry", namespaceURI: "urn:other").isEmpty)
        let thumbnail = try #require(document.element(at: "feed/entry/media:thumbnail"))
        #expect(thumbnail.name == "thumbnail" && thumbnail.prefix == "media")
        #expect(thumbnail.qualifiedName == "media:thumbnail")
        #expect(thumbnail.namespaceURI == "http://search.yahoo.com/mrss/")
        // Found by local name too.
        #expect(document.element(at: "feed/entry/thumbnail") == thumbnail)
        #expect(thumbnail.attribute("url") == "a.png")
        #expect(thumbnail.attribute("media:width") == "10")
        #expect(thumbnail.attribute("width", namespaceURI: "http://search.yahoo.com/mrss/") == "10")
        #expect(thumbnail.attribute("width") == nil)
        #expect(root.descendants(named: "title").map(\.text) == ["One", "Two"])
    }

    @Test func pathsSearchDepthFirstAndSupportWildcards() throws {
        let document = try XMLDocument.parse(data: Data("<r><a><b/></a><a><b><c>found</c></b></a></r>".utf8))
        #expect(document.element(at: "r/a/b/c")?.text == "found")
        #expect(document.element(at: "*/*/*/c")?.text == "found")
        #expect(document.element(at: "r/a/x") == nil)
        #expect(document.element(at: "other/a") == nil)
        #expect(document.root?.element(at: "") == document.root)
        #expect(document.element(at: "r") == document.root)
    }

    @Test func elementsCompareByIdentity() throws {
        let data = Data("<r><a/><a/></r>".utf8)
        let first = try XMLDocument.parse(data: data)
        let second = try XMLDocument.parse(data: data)
        let pair = try #require(first.root?.elements)
        #expect(pair[0] != pair[1])
        #expect(first.root?.elements.first == pair[0])
        #expect(first.root != second.root)
        #expect(Set(pair + pair).count == 2)
    }

    @Test func whitespaceOnlyTextIsKeptUnlessDropped() throws {
        let xml = Data("<r>\n  <a>x</a>\n</r>".utf8)
        let kept = try XMLDocument.parse(data: xml)
        #expect(kept.root?.children.count == 3)
        var options = XMLParsingOptions()
        options.dropsWhitespaceOnlyText = true
        let dropped = try XMLDocument.parse(data: xml, options: options)
        #expect(dropped.root?.children.count == 1)
        #expect(dropped.root?.text == "x")
    }

    @Test func parsesFromAStreamAndFromNonContiguousData() throws {
        let xml = "<list>\(String(repeating: "<i>v</i>", count: 10_000))</list>"
        let fromStream = try XMLDocument.parse(stream: InputStream(data: Data(xml.utf8)))
        #expect(fromStream.root?.elements.count == 10_000)
        var pieces = DispatchData.empty
        for piece in stride(from: 0, to: xml.utf8.count, by: 1000) {
            let bytes = Array(xml.utf8.dropFirst(piece).prefix(1000))
            bytes.withUnsafeBytes { pieces.append($0) }
        }
        let fromPieces = try XMLDocument.parse(data: pieces)
        #expect(fromPieces.root?.text == String(repeating: "v", count: 10_000))
    }

    @Test func failuresAreTypedErrors() {
        #expect(throws: XMLError.self) { try XMLDocument.parse(data: Data("<a><b></a>".utf8)) }
        let empty = #expect(throws: XMLError.self) { try XMLDocument.parse(data: Data()) }
        #expect(empty?.code == .emptyDocument)
    }

    @Test func theEmptyDocumentHasNoRoot() {
        #expect(XMLDocument.empty.root == nil)
        #expect(XMLDocument.empty.element(at: "a") == nil)
        #expect(XMLDocument.empty.outsideRoot.isEmpty)
    }

    @Test func treeAndEventsAgreeOnEveryElement() throws {
        let xml = Data(Self.slideshow.utf8)
        let names = startNames(try XMLStreamParser.parse(xml, handler: XMLEventRecorder()).events)
        let root = try #require(try XMLDocument.parse(data: xml).root)
        func walk(_ element: XMLElement) -> [String] { [element.name] + element.elements.flatMap(walk) }
        #expect(walk(root) == names)
    }
}
