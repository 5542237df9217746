import GannetXML
import Testing

@Suite("Event parser: encodings")
struct XMLEncodingTests {
    static let text = "Ærøskøbing — “Zürich” 😀"

    @Test func utf8WithAndWithoutByteOrderMark() throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><t>\(Self.text)</t>"
        #expect(try events(xml).contains(.characters(Self.text)))
        #expect(try events([0xEF, 0xBB, 0xBF] + Array(xml.utf8)).contains(.characters(Self.text)))
        #expect(try events("<t>\(Self.text)</t>").contains(.characters(Self.text)))
    }

    @Test(arguments: [true, false])
    func utf16WithByteOrderMark(littleEndian: Bool) throws {
        let xml = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><t a=\"\(Self.text)\">\(Self.text)</t>"
        var bytes: [UInt8] = littleEndian ? [0xFF, 0xFE] : [0xFE, 0xFF]
        for unit in xml.utf16 {
            bytes += littleEndian ? [UInt8(unit & 0xFF), UInt8(unit >> 8)] : [UInt8(unit >> 8), UInt8(unit & 0xFF)]
        }
        let recorded = try events(bytes)
        #expect(recorded.contains(.characters(Self.text)))
        #expect(
            recorded.contains(
                .startElement(
                    name: "t",
                    prefix: nil,
                    namespaceURI: nil,
                    attributes: [XMLAttribute(name: "a", value: Self.text)],
                    namespaces: []
                )
            )
        )
    }

    @Test func iso88591Declared() throws {
        // "café déjà vu" in Latin-1: é = 0xE9, à = 0xE0.
        let bytes =
            Array(#"<?xml version="1.0" encoding="ISO-8859-1"?><t v=""#.utf8) + [0xE9]
            + Array(#"">caf"#.utf8) + [0xE9] + Array(" d".utf8) + [0xE9, 0x6A, 0xE0] + Array(" vu</t>".utf8)
        let recorded = try events(bytes)
        #expect(recorded.contains(.characters("café déjà vu")))
        #expect(
            recorded.contains(
                .startElement(
                    name: "t",
                    prefix: nil,
                    namespaceURI: nil,
                    attributes: [XMLAttribute(name: "v", value: "é")],
                    namespaces: []
                )
            )
        )
    }

    @Test func windows1252DeclaredGoesThroughIconv() throws {
        // 0x80 is € in windows-1252 (and a control character in ISO-8859-1).
        let bytes = Array(#"<?xml version="1.0" encoding="windows-1252"?><t>"#.utf8) + [0x80] + Array("</t>".utf8)
        #expect(try events(bytes).contains(.characters("€")))
    }

    @Test func anUnknownEncodingIsATypedError() throws {
        let error = try #require(parseError(#"<?xml version="1.0" encoding="x-gannet-nonsense"?><t>x</t>"#))
        #expect(error.code == .unsupportedEncoding)
    }

    @Test func invalidUTF8IsAnErrorNotAReplacement() throws {
        let bytes = Array("<t>abc".utf8) + [0xC3, 0x28] + Array("</t>".utf8)
        let error = try #require(parseError(bytes))
        #expect(error.code == .malformed)
        #expect(error.line == 1)
    }
}
