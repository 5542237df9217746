import Foundation
import Testing

@testable import GannetVocabulary

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `MediaTypeParser.simple(_:)` reads the plain `type/subtype` of nearly every response without
/// the scanner; wherever it answers it must give the scanner's answer, and it must leave every
/// other shape to the scanner.
@Suite("MediaType: the plain-essence fast path agrees with the grammar")
struct MediaTypeFastPathTests {
    @Test(arguments: ["application/json", "text/html", "application/problem+json", "image/svg+xml", "a/b", "x-y/z.w"])
    func plainEssencesAreReadAsTheScannerReadsThem(text: String) throws {
        let fast = try #require(MediaTypeParser.simple(text[...]), "\(text) was left to the scanner")
        #expect(fast == MediaTypeParser.scan(text[...]))
        #expect(MediaTypeParser.parseContentType(text) == fast)
    }

    @Test(arguments: [
        "Application/JSON", "text/html; charset=utf-8", " text/html", "text/html ", "*/*", "text/*", "*/json", "",
        "json", "/json", "application/", "application/json/x", "a/b,c/d", "\"text\"/plain", "application/jsön",
        "text/plain html",
    ])
    func everyOtherShapeIsLeftToTheScanner(text: String) {
        #expect(MediaTypeParser.simple(text[...]) == nil)
    }

    /// A head's `Content-Type`, read from its bytes, is what its joined value (what
    /// `HTTPURLResponse` holds) parses as: one field, repeats, none, any case of the name, and
    /// values the fast path leaves to the scanner.
    @Test(arguments: [
        [], ["application/json"], ["text/html; charset=utf-8"], ["Application/JSON"], ["*/*"], ["json"],
        ["text/plain; charset=\"a,b\""], ["text/html", "application/json"], ["application/json", "*/*"],
        ["text/html, */*"], [" text/html"], ["application/j\u{00F6}n"],
    ])
    func aHeadsContentTypeIsReadAsItsJoinedValue(values: [String]) {
        let names = ["Content-Type", "content-type", "CONTENT-TYPE"]
        var fields: [(name: String, value: String)] = [("Date", "Mon, 30 Nov 2026 02:00:00 GMT")]
        for (index, value) in values.enumerated() { fields.append((names[index % names.count], value)) }
        fields.append(("Content-Length", "2"))
        let head = ResponseHead.Fields(fields)
        let joined = head.joinedValue(named: "Content-Type")
        #expect(head.contentType == joined.flatMap(MediaTypeParser.parseContentType), "\(values)")
        #expect(
            (head.contentType == nil)
                == (values.isEmpty || values == ["*/*"] || values == ["json"] || values == ["application/j\u{00F6}n"])
        )
    }

    /// A response a hook already built is read through Foundation's object, and gives what the
    /// parsed head gives.
    @Test func aBuiltResponsesContentTypeIsTheParsedHeadsToo() throws {
        let url = try #require(URL(string: "http://example.com/"))
        let value = "application/problem+json; charset=utf-8"
        let built = try #require(
            HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["content-type": value])
        )
        let head = ResponseHead(statusCode: 200, httpVersion: "HTTP/1.1", fields: [("Content-Type", value)])
        let parsed = LazyResponse(head: head, url: url).contentType
        #expect(parsed?.essence == "application/problem+json" && parsed?.charset == "utf-8")
        #expect(LazyResponse(prebuilt: built).contentType == parsed)
        #expect(ResponseView(built).contentType == parsed)
    }

    /// Through the public entry point: the answers for the shapes around the fast path.
    @Test func contentTypesParseAsBefore() {
        #expect(MediaTypeParser.parseContentType("Application/JSON")?.essence == "application/json")
        #expect(MediaTypeParser.parseContentType("*/*") == nil)
        #expect(MediaTypeParser.parseContentType("text/html, */*")?.essence == "text/html")
        #expect(MediaTypeParser.parseContentType("text/html, application/json")?.essence == "application/json")
        #expect(MediaTypeParser.parseContentType("application/json/x") == nil)
        #expect(MediaTypeParser.parseContentType("text/plain; charset=\"a,b\"")?.charset == "a,b")
    }
}
