import GannetResponseSerialization
import Testing

/// AFNetworking's `AFJSONResponseSerializationTests`, and Gannet's additions.
@Suite("JSONResponseSerializer")
struct JSONResponseSerializerTests {
    let serializer = JSONResponseSerializer()
    let fooBar = Fixture.data(#"{"foo":"bar"}"#)

    @Test(
        "Accepts the JSON media types",
        arguments: [
            "application/json", "text/json", "text/javascript", "application/json; charset=utf-8",
            "application/problem+json", "application/vnd.api+json",
        ]
    )
    func acceptsJSONTypes(_ contentType: String) throws {
        // Given JSON served as a JSON type / When serialized / Then a dictionary
        let value = try serializer.serialize(Fixture.response(200, contentType: contentType), fooBar)
        #expect((value as? [String: Any])?["foo"] as? String == "bar")
    }

    @Test(
        "Rejects non-JSON media types, such as nonstandard/json and an HTML error page",
        arguments: [
            "nonstandard/json", "text/html", "text/plain",
        ]
    )
    func rejectsOtherTypes(_ contentType: String) throws {
        // Given a body with a non-JSON type
        let body = Fixture.data("<html><body>Bad gateway</body></html>")

        // When serialized
        let error = try #require(
            serializationError { try serializer.serialize(Fixture.response(200, contentType: contentType), body) }
        )

        // Then an unacceptable-content-type error that keeps the body (SECURITY-CASES 29)
        #expect(error.code == .unacceptableContentType)
        #expect(error.message == "Request failed: unacceptable content-type: \(contentType)")
        #expect(error.data == body)
    }

    @Test("An HTML error page with an error status: status error on top, content type underneath")
    func htmlErrorPage() throws {
        let body = Fixture.data("<html>oops</html>")
        let error = try #require(
            serializationError { try serializer.serialize(Fixture.response(502, contentType: "text/html"), body) }
        )
        #expect(error.code == .unacceptableStatusCode)
        #expect((error.underlyingError as? ResponseSerializationError)?.code == .unacceptableContentType)
        #expect(error.data == body)
    }

    @Test("A JSON error document with an error status is a status error with the body kept")
    func jsonErrorDocument() throws {
        let body = Fixture.data(#"{"error":"not found"}"#)
        let error = try #require(
            serializationError {
                try serializer.serialize(Fixture.response(404, contentType: "application/json"), body)
            }
        )
        #expect(error.code == .unacceptableStatusCode)
        #expect(error.underlyingError == nil)
        #expect(try JSONDecoder().decode([String: String].self, from: error.data ?? Data()) == ["error": "not found"])
    }

    @Test("Values cast the way AFNetworking's Foundation objects did")
    func valueShapes() throws {
        // Given a document with every JSON kind
        let body = Fixture.data(#"{"s":"x","i":10,"d":2.5,"t":true,"f":false,"n":null,"a":[1,"two"],"o":{"k":"v"}}"#)

        // When serialized
        let value = try serializer.serialize(Fixture.response(200, contentType: "application/json"), body)

        // Then AFNetworking-style casts work
        let object = try #require(value as? [String: Any])
        #expect(object["s"] as? String == "x")
        #expect(object["i"] as? Int == 10)
        #expect(object["i"] as? Double == 10, "an integer is also a Double, as NSNumber was")
        #expect(object["d"] as? Double == 2.5)
        #expect(object["t"] as? Bool == true && object["f"] as? Bool == false)
        #expect(object["n"] is NSNull)
        #expect((object["a"] as? [Any])?.count == 2)
        #expect((object["o"] as? [String: Any])?["k"] as? String == "v")
        // And the value really is made of sendable Swift containers
        #expect(value is [String: any Sendable])
    }

    @Test(
        "The mutable reading options still give Swift values, which are sendable",
        arguments: [
            JSONSerialization.ReadingOptions.mutableContainers, .mutableLeaves,
        ]
    )
    func mutableOptions(_ options: JSONSerialization.ReadingOptions) throws {
        // Given options under which Foundation returns NSMutableDictionary or NSMutableString
        let serializer = JSONResponseSerializer(readingOptions: options, removesKeysWithNullValues: true)

        // When serialized
        let value = try serializer.serialize(
            Fixture.response(200, contentType: "application/json"),
            Fixture.data(#"{"a":["x",null],"b":{"c":"d"}}"#)
        )

        // Then the tree is made of Swift containers and strings
        let object = try #require(value as? [String: any Sendable])
        #expect(type(of: object["a"]!) == [any Sendable].self)
        #expect((object["a"] as? [any Sendable])?.first.map { type(of: $0) == String.self } == true)
        #expect((object["b"] as? [String: any Sendable])?["c"] as? String == "d")
        #expect((object["a"] as? [Any])?.count == 1)
    }

    @Test("Invalid JSON is a jsonDecodingFailed error with Foundation's reason and the body")
    func invalidJSON() throws {
        let body = Fixture.data("{invalid}")
        let error = try #require(
            serializationError { try serializer.serialize(Fixture.response(200, contentType: "text/json"), body) }
        )
        #expect(error.code == .jsonDecodingFailed)
        #expect(error.message.hasPrefix("JSON could not be parsed: "))
        #expect(error.message.hasSuffix("— body (9 bytes): {invalid}"))
        #expect((error.underlyingError as? NSError)?.code == 3840)
    }

    @Test(
        "An empty body or a single space gives nil and no error (Rails' head :ok)",
        arguments: [Data(), Fixture.data(" "), nil]
    )
    func emptyAndSpace(_ body: Data?) throws {
        let value = try serializer.serialize(Fixture.response(200, contentType: "text/json"), body)
        #expect(value == nil)
    }

    @Test("Two spaces are not Rails' single space: invalid JSON")
    func twoSpaces() {
        #expect(
            serializationError {
                try serializer.serialize(Fixture.response(200, contentType: "application/json"), Fixture.data("  "))
            }?
            .code == .jsonDecodingFailed
        )
    }

    @Test("Removes null members and elements at every depth (AFNetworking's own case, and deeper)")
    func removesNulls() throws {
        // Given AFNetworking's test document, plus deeper nesting
        let serializer = JSONResponseSerializer(removesKeysWithNullValues: true)
        let body = Fixture.data(
            """
            {"key":"value","nullkey":null,"array":[{"subnullkey":null}],"arrayWithNulls":[null],
             "deep":{"a":[1,null,{"b":null,"c":[null,{"d":null,"e":0}]}]}}
            """
        )

        // When serialized
        let value = try serializer.serialize(Fixture.response(200, contentType: "text/json"), body)

        // Then no null survives anywhere
        let object = try #require(value as? [String: Any])
        #expect(object["key"] as? String == "value")
        #expect(object["nullkey"] == nil)
        #expect(((object["array"] as? [Any])?.first as? [String: Any])?.isEmpty == true)
        #expect((object["arrayWithNulls"] as? [Any])?.isEmpty == true)
        let deep = try #require((object["deep"] as? [String: Any])?["a"] as? [Any])
        #expect(deep.count == 2)
        let inner = try #require(deep[1] as? [String: Any])
        #expect(inner.keys.sorted() == ["c"])
        let c = try #require(inner["c"] as? [Any])
        #expect(c.count == 1)
        #expect((c[0] as? [String: Any])?.keys.sorted() == ["e"])
    }

    @Test("Null removal also applies to a top-level array; a top-level null fragment stays")
    func removesNullsTopLevel() throws {
        let serializer = JSONResponseSerializer(readingOptions: .fragmentsAllowed, removesKeysWithNullValues: true)
        let array = try serializer.serialize(
            Fixture.response(200, contentType: "application/json"),
            Fixture.data("[null,1,null]")
        )
        #expect((array as? [Any])?.count == 1)
        let null = try serializer.serialize(
            Fixture.response(200, contentType: "application/json"),
            Fixture.data("null")
        )
        #expect(null is NSNull)
    }

    @Test("Fragments need .fragmentsAllowed, as with AFNetworking's default reading options")
    func fragments() throws {
        let response = Fixture.response(200, contentType: "application/json")
        #expect(
            serializationError { try serializer.serialize(response, Fixture.data("42")) }?.code == .jsonDecodingFailed
        )
        let lenient: JSONResponseSerializer = .json(readingOptions: .fragmentsAllowed)
        #expect(try lenient.serialize(response, Fixture.data("42")) as? Int == 42)
        #expect(try lenient.serialize(response, Fixture.data("\"hi\"")) as? String == "hi")
    }

    @Test("Strips an XSSI prefix before parsing when asked")
    func xssiPrefix() throws {
        var serializer = serializer
        let body = Fixture.data(")]}',\n{\"foo\":\"bar\"}")
        #expect(
            serializationError {
                try serializer.serialize(Fixture.response(200, contentType: "application/json"), body)
            }?
            .code == .jsonDecodingFailed
        )
        serializer.dataPreprocessor = .xssiPrefix
        let value = try serializer.serialize(Fixture.response(200, contentType: "application/json"), body)
        #expect((value as? [String: Any])?["foo"] as? String == "bar")
    }

    @Test("Rethrows a transport error first")
    func transportFirst() {
        #expect(throws: URLError(.notConnectedToInternet)) {
            try serializer.serialize(
                request: nil,
                response: Fixture.response(200, contentType: "text/html"),
                data: Fixture.data("<html>"),
                error: URLError(.notConnectedToInternet)
            )
        }
    }

    @Test("Configuration survives copies (value semantics)")
    func copies() {
        var original = JSONResponseSerializer()
        original.acceptableStatusCodes = IndexSet(integer: 100)
        original.acceptableContentTypes = ["test/type"]
        original.readingOptions = .mutableLeaves
        original.removesKeysWithNullValues = true
        var copy = original
        copy.removesKeysWithNullValues = false
        #expect(copy.acceptableStatusCodes == original.acceptableStatusCodes)
        #expect(copy.acceptableContentTypes == original.acceptableContentTypes)
        #expect(copy.readingOptions == original.readingOptions)
        #expect(original.removesKeysWithNullValues && !copy.removesKeysWithNullValues)
    }
}
