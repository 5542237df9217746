import GannetXML
// This file imports FoundationXML and GannetXML together on purpose: both declare
// `XMLDocument`, `XMLElement` and `XMLNode`, and docs/xml.md says to qualify them with the module
// name in such a file. If this file compiles, that advice works.
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("GannetXML and FoundationXML names in one file")
struct XMLFoundationXMLNamesTests {
    static let body = Data("<feed xmlns='urn:f'><entry id='1'>one</entry><entry id='2'>two</entry></feed>".utf8)

    @Test("Module-qualified names pick each library's types, and both parse the same document")
    func qualifiedNames() throws {
        let document: GannetXML.XMLDocument = try GannetXML.XMLDocument.parse(data: Self.body)
        let root: GannetXML.XMLElement = try #require(document.root)
        let nodes: [GannetXML.XMLNode] = root.children
        #expect(root.name == "feed")
        #expect(nodes.count == 2)
        #expect(root.elements.map(\.text) == ["one", "two"])

        #if canImport(FoundationXML)
        let foundation = try FoundationXML.XMLDocument(data: Self.body)
        let foundationRoot: FoundationXML.XMLElement = try #require(foundation.rootElement())
        #expect(foundationRoot.name == root.name)
        #expect(foundationRoot.elements(forName: "entry").compactMap(\.stringValue) == root.elements.map(\.text))
        #endif
    }
}
