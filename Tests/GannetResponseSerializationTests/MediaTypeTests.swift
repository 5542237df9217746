import GannetResponseSerialization
import Testing

@Suite("MediaType")
struct MediaTypeTests {
    @Test("Parses type, subtype and parameters, lowercasing what is case-insensitive")
    func parsesParts() throws {
        // Given a Content-Type header with odd case, spaces and a quoted parameter
        let header = "Application/Problem+JSON ;  Charset=\"UTF-8\"; profile=\"a;b \\\"c\\\"\""

        // When it is parsed
        let type = try #require(MediaType(header))

        // Then names are lowercased, values kept, quotes and escapes resolved
        #expect(type.type == "application")
        #expect(type.subtype == "problem+json")
        #expect(type.essence == "application/problem+json")
        #expect(type.suffix == "json")
        #expect(type.charset == "UTF-8")
        #expect(type.parameters == ["charset": "UTF-8", "profile": "a;b \"c\""])
        #expect(!type.isRange)
    }

    @Test(
        "Rejects text without a valid type/subtype",
        arguments: [
            "", "json", "application/", "/json", "*/json", "appli cation/json", "application/json/x",
            "text/plain html", "application/jsön", "\"text\"/plain",
        ]
    )
    func rejectsInvalid(_ text: String) {
        // Given text that is not a media type / When parsed / Then nil
        #expect(MediaType(text) == nil)
    }

    @Test("Skips malformed parameters and keeps the first of duplicates, as browsers do")
    func lenientParameters() throws {
        // Given parameters with no value, no name, an unclosed quote and a duplicate
        let header = "text/plain; bogus; =x; charset=utf-8; charset=latin1; q=\"open;"
        let type = try #require(MediaType(header))

        // Then the valid ones survive, first occurrence wins
        #expect(type.essence == "text/plain")
        #expect(type.parameters == ["charset": "utf-8"])
    }

    @Test("Ranges match by type, wildcard and structured-syntax suffix, ignoring parameters")
    func matching() throws {
        let json: MediaType = "application/json; charset=utf-8"
        let problem: MediaType = "application/problem+json"
        let html: MediaType = "TEXT/HTML"
        let textJSONSuffix: MediaType = "text/x-thing+json"

        #expect(MediaType.any.matches(json) && MediaType.any.matches(html))
        #expect(MediaType.anyText.matches(html) && !MediaType.anyText.matches(json))
        #expect(MediaType.anyJSONSuffix.matches(problem))
        #expect(!MediaType.anyJSONSuffix.matches(json), "application/json has no +json suffix")
        #expect(!MediaType.anyJSONSuffix.matches(textJSONSuffix), "the type must match too")
        #expect(MediaType.json.matches(json), "parameters are ignored")
        #expect(MediaType("application/json; charset=latin1").matches(MediaType.json))
        #expect(MediaType("text/html").matches(html), "case-insensitive")
        #expect(!MediaType.json.matches(problem))
        #expect(MediaType.anyJSONSuffix.isRange && MediaType.anyText.isRange && MediaType.any.isRange)
    }

    @Test("Describes itself as a header value, quoting where needed")
    func description() throws {
        let type = MediaType(type: "Text", subtype: "Plain", parameters: ["Charset": "utf-8", "title": "a b"])
        #expect(type.description == "text/plain; charset=utf-8; title=\"a b\"")
        #expect(MediaType(type.description) == type, "round trip")
        #expect(type.withoutParameters.description == "text/plain")
    }

    @Test("Reads a response's Content-Type, case-insensitive header name")
    func fromResponse() {
        #expect(
            MediaType(contentTypeOf: Fixture.response(contentType: "text/csv; header=present"))?.essence == "text/csv"
        )
        #expect(MediaType(contentTypeOf: Fixture.response()) == nil)
        #expect(MediaType(contentTypeOf: Fixture.response(contentType: "nonsense")) == nil)
    }

    @Test("A repeated Content-Type, joined with commas, resolves to the last valid type as in browsers")
    func repeatedContentType() {
        // Given what httpbin's /response-headers sends: its own type, then the requested one
        #expect(
            MediaType(contentTypeOf: Fixture.response(contentType: "application/json, application/msgpack"))?.essence
                == "application/msgpack"
        )
        // A comma inside a quoted parameter does not split, */* and invalid parts are skipped
        let quoted = MediaType(
            contentTypeOf: Fixture.response(contentType: "text/plain; title=\"a, b\", */*, nonsense")
        )
        #expect(quoted?.essence == "text/plain")
        #expect(quoted?.parameters["title"] == "a, b")
        #expect(MediaType(contentTypeOf: Fixture.response(contentType: ", */*")) == nil)
    }

    @Test("Sets of media types find matches through ranges")
    func setMatching() {
        let accepted: Set<MediaType> = ["application/json", "text/*"]
        #expect(accepted.containsMatch(for: "text/csv"))
        #expect(accepted.containsMatch(for: "application/json; charset=utf-8"))
        #expect(!accepted.containsMatch(for: "application/xml"))
    }

    /// Found by the media-type fuzz target (docs/reliability.md): a quote followed by a
    /// combining mark is one `Character`, and `description` left that quote unescaped, so the
    /// description parsed back to another value.
    @Test func aQuoteBeforeACombiningMarkIsEscapedInTheDescription() throws {
        let note = "a\"\u{0654}b"
        let text = "text/plain; note=\"a\\\"\u{0654}b\""
        let parsed = try #require(MediaType(text))
        #expect(parsed.parameters["note"] == note)
        let description = parsed.description
        #expect(MediaType(description) == parsed, "\(description.debugDescription)")
        // The two inputs the fuzz target saved: a quote, then a backslash, before a combining mark.
        for saved in [
            "bXVsMnQvZm9tLWB0YTsgYj0in9+dumNcImQgYvljXCLZlGV0PVVURiJkIGJpY1wiJ3Nl",
            "bXVsYXAhYWljbC92OyBuPXQ9O3F0aTsBAG47Y3Q9IlU6XF1cXFxcXFxc3q6jXFxcXGY7AG46IkYtNg==",
        ] {
            let found = try #require(Data(base64Encoded: saved))
            let crash = try #require(MediaType(String(decoding: found, as: UTF8.self)))
            let crashDescription = crash.description
            #expect(MediaType(crashDescription) == crash, "\(crashDescription.debugDescription)")
        }
    }
}
