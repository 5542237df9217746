import Testing

@testable import GannetVocabulary

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
