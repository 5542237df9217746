import Foundation
import Testing

@testable import GannetCLI

@Suite("gannet output formatting")
struct FormattingTests {
    @Test func jsonIsReindentedKeepingTokensAsWritten() throws {
        // Given a compact document with key order, a float spelling and escapes a parser would change
        let input = Data(#"{"z":1.0,"a":[1,2,{}],"s":"x\"y\u00e9","e":[],"n":null,"t":true}"#.utf8)
        // When it is formatted without colours
        let output = try #require(JSONFormatter.format(input, indent: true, palette: Palette(enabled: false)))
        // Then every token survives, re-indented by four spaces
        #expect(
            output == """
                {
                    "z": 1.0,
                    "a": [
                        1,
                        2,
                        {}
                    ],
                    "s": "x\\"y\\u00e9",
                    "e": [],
                    "n": null,
                    "t": true
                }
                """
        )
    }

    @Test func jsonColoursKeysStringsNumbersAndLiterals() throws {
        let output = try #require(
            JSONFormatter.format(
                Data(#"{"k":"v","n":2,"b":false}"#.utf8),
                indent: false,
                palette: Palette(enabled: true)
            )
        )
        #expect(
            output
                == "{\u{1B}[1;34m\"k\"\u{1B}[0m:\u{1B}[32m\"v\"\u{1B}[0m,\u{1B}[1;34m\"n\"\u{1B}[0m:\u{1B}[36m2\u{1B}[0m,\u{1B}[1;34m\"b\"\u{1B}[0m:\u{1B}[35mfalse\u{1B}[0m}"
        )
    }

    @Test(arguments: ["{", "not json", "{\"a\":}", ""])
    func invalidJSONIsLeftAlone(_ text: String) {
        #expect(JSONFormatter.format(Data(text.utf8), indent: true, palette: Palette(enabled: false)) == nil)
    }

    @Test func xmlIsReindentedWithTextOnlyElementsOnOneLine() throws {
        // Given a document with a declaration, a comment, attributes, a namespace, mixed
        // content, an empty element and an escaped character
        let input = Data(
            #"<?xml version="1.0"?><!-- birds --><colony xmlns:g="urn:g" name="Bass &amp; Rock"><g:bird id="1">Gannet</g:bird><note>Dives <em>fast</em></note><empty/></colony>"#
                .utf8
        )
        // When it is formatted without colours
        let output = try #require(XMLFormatter.format(input, indent: true, palette: Palette(enabled: false)))
        // Then it is indented by two spaces and still well-formed
        #expect(
            output == """
                <?xml version="1.0"?>
                <!-- birds -->
                <colony xmlns:g="urn:g" name="Bass &amp; Rock">
                  <g:bird id="1">Gannet</g:bird>
                  <note>
                    Dives
                    <em>fast</em>
                  </note>
                  <empty/>
                </colony>

                """
        )
    }

    @Test(arguments: ["<a><b></a>", "not xml", "", "<a>&undefined;</a>"])
    func malformedXMLIsLeftAlone(_ text: String) {
        #expect(XMLFormatter.format(Data(text.utf8), indent: true, palette: Palette(enabled: false)) == nil)
    }

    @Test func xmlEntityDeclarationsAreRefusedNotExpanded() {
        let laughs =
            #"<?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><l>&b;</l>"#
        #expect(XMLFormatter.format(Data(laughs.utf8), indent: true, palette: Palette(enabled: false)) == nil)
    }

    @Test func bodyKindFromContentType() {
        #expect(BodyRenderer.kind(of: "application/json; charset=utf-8") == .json)
        #expect(BodyRenderer.kind(of: "application/problem+json") == .json)
        #expect(BodyRenderer.kind(of: "application/xml") == .xml)
        #expect(BodyRenderer.kind(of: "text/xml") == .xml)
        #expect(BodyRenderer.kind(of: "application/atom+xml") == .xml)
        #expect(BodyRenderer.kind(of: "text/html") == .text)
        #expect(BodyRenderer.kind(of: "image/png") == .other)
        #expect(BodyRenderer.kind(of: nil) == .other)
    }

    @Test func binaryGuardOnlyOnATerminal() {
        let binary = Data([0x89, 0x50, 0x00, 0x01])
        #expect(
            BodyRenderer(pretty: .all, toTerminal: true).render(binary, kind: .other)
                == Data(BodyRenderer.binaryNote.utf8)
        )
        #expect(BodyRenderer(pretty: .none, toTerminal: false).render(binary, kind: .other) == binary)
        let latin1 = Data([0x63, 0x61, 0x66, 0xE9])
        #expect(BodyRenderer(pretty: .all, toTerminal: true).render(latin1, kind: .text) == latin1)
        #expect(
            BodyRenderer(pretty: .all, toTerminal: true).render(latin1, kind: .other)
                == Data(BodyRenderer.binaryNote.utf8)
        )
        // A long UTF-8 body whose 64 KiB sample ends inside "é" is still text.
        let long = Data(repeating: UInt8(ascii: "a"), count: 64 * 1024 - 1) + Data("é".utf8)
        #expect(BodyRenderer(pretty: .all, toTerminal: true).render(long, kind: .other) == long)
    }

    @Test func queryEscapingKeepsOrderAndEscapesReserved() throws {
        let url = try RequestBuilder.url(
            URL(string: "http://x/p?k=1#frag")!,
            appending: [("b", "1 2"), ("a", "x&y=z+"), ("b", "é")]
        )
        #expect(url.absoluteString == "http://x/p?k=1&b=1%202&a=x%26y%3Dz%2B&b=%C3%A9#frag")
        // Unlike a serializer's query string, `/` and `?` are escaped too, as httpie does.
        let nested = try RequestBuilder.url(URL(string: "http://x/")!, appending: [("next", "http://e/?a=b~")])
        #expect(nested.absoluteString == "http://x/?next=http%3A%2F%2Fe%2F%3Fa%3Db~")
    }

    @Test func repeatedFieldsBecomeArrays() throws {
        let parameters = try RequestBuilder.fieldParameters([
            .dataString(name: "a", value: "1"), .dataString(name: "a", value: "2"),
            .rawJSON(name: "n", json: "[1,true]"),
        ])
        #expect(parameters["a"] as? [String] == ["1", "2"])
        #expect((parameters["n"] as? [any Sendable])?.count == 2)
    }

    @Test func progressLine() {
        #expect(
            ProgressBar.line(label: "", completed: 500_000, total: 1_000_000, elapsed: 1)
                == "  50% [============>           ] 500.0 kB / 1.0 MB  500.0 kB/s"
        )
        #expect(ByteCount.text(999) == "999 B")
        #expect(ByteCount.text(1_500_000_000) == "1.5 GB")
    }
}
