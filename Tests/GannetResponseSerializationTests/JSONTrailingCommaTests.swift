import Foundation
import GannetResponseSerialization
import Testing

/// The scan that finds what Foundation on Linux accepts beyond RFC 8259 (JSONTrailingComma.swift).
@Suite("JSONTrailingComma")
struct JSONTrailingCommaTests {
    @Test("Each trailing comma is found, in UTF-8, UTF-16 and UTF-32 bodies")
    func everyTrailingCommaIsFound() {
        for (name, body) in JSONBytesParserTests.trailingCommas {
            #expect(JSONTrailingComma.offset(in: body) != nil, "\(name)")
        }
        #expect(JSONTrailingComma.offset(in: Data("[1,]".utf8)) == 2)
        #expect(JSONTrailingComma.offset(in: Data(#"{"a":[1] , }"#.utf8)) == 9)
    }

    @Test("Commas inside strings and between items are not trailing commas: the same tree as JSONSerialization")
    func commasThatAreNotTrailingParse() throws {
        let response = Fixture.response(200, contentType: "application/json")
        for text in JSONBytesParserTests.commasThatAreNotTrailing {
            #expect(JSONTrailingComma.offset(in: Data(text.utf8)) == nil, "\(text)")
            expectSameAsJSONSerialization(text)
            #expect(try JSONResponseSerializer().serialize(response, Fixture.data(text)) != nil, "\(text)")
        }
        // JSON5, where a trailing comma is allowed, is the decoder's to accept.
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        #expect(
            try DecodableResponseSerializer<[Int]>(decoder: decoder).serialize(response, Fixture.data("[1,]")) == [1]
        )
    }

}
