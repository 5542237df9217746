import GannetResponseSerialization
import Testing

/// One way into every serializer: a ``ResponseInput``, built by the session or by hand for a
/// response that came another way (URLSession, async-http-client).
@Suite("ResponseInput: one input for every serializer")
struct ResponseInputTests {
    @Test("A serializer runs on a response that came another way, through the input's initializer")
    func aResponseFromElsewhereIsSerialized() throws {
        // Given a JSON response and body from another client
        let input = ResponseInput(
            request: Fixture.request(),
            response: Fixture.response(200, contentType: "application/json"),
            data: Fixture.data(#"{"bird":"gannet"}"#)
        )

        // When JSON and the registry serialize it / Then both read the same value
        let json = try JSONResponseSerializer().serialize(input) as? [String: any Sendable]
        #expect(json?["bird"] as? String == "gannet")
        let picked = try ResponseSerializerRegistry.standard.serialize(input) as? [String: any Sendable]
        #expect(picked?["bird"] as? String == "gannet")
    }

    @Test("The four-argument call and the input give the same value and the same error")
    func theFourArgumentCallIsTheInput() throws {
        // Given a serializer and a response it refuses (404)
        let serializer = StringResponseSerializer()
        let refused = Fixture.response(404, contentType: "text/plain")

        // When each is called both ways / Then the answers agree
        #expect(
            try serializer.serialize(request: nil, response: Fixture.response(), data: Fixture.data("ok"), error: nil)
                == serializer.serialize(ResponseInput(response: Fixture.response(), data: Fixture.data("ok")))
        )
        let viaArguments = serializationError {
            try serializer.serialize(request: nil, response: refused, data: Fixture.data("x"), error: nil)
        }
        let viaInput = serializationError {
            try serializer.serialize(ResponseInput(response: refused, data: Fixture.data("x")))
        }
        #expect(viaArguments?.code == .unacceptableStatusCode)
        #expect(viaInput?.code == viaArguments?.code)
    }

    @Test("A download is judged by validate(_:), with the file and the start of its body")
    func aDownloadIsJudgedByValidate() throws {
        // Given a JSON serializer and a downloaded HTML error page
        let input = ResponseInput(
            response: Fixture.response(200, contentType: "text/html"),
            data: Fixture.data("<html>"),
            fileURL: URL(fileURLWithPath: "/tmp/page.html")
        )

        // When the serializer judges it / Then the content type is refused, and the plain
        // serializer, which does not validate, accepts it
        let refusal = serializationError { try JSONResponseSerializer().validate(input) }
        #expect(refusal?.code == .unacceptableContentType)
        #expect(refusal?.data == Fixture.data("<html>"))
        try PassthroughResponseSerializer().validate(input)
        try AnyResponseSerializer(PassthroughResponseSerializer()).validate(input)
        #expect(throws: ResponseSerializationError.self) {
            try AnyResponseSerializer(JSONResponseSerializer()).validate(input)
        }
    }

    @Test("The parsed status and fields are read without asking for the response object")
    func theStatusAndFieldsAreReadFromTheInput() {
        // Given an input built from a response
        let input = ResponseInput(response: Fixture.response(201, contentType: "text/csv"))

        // Then its status and fields answer as the response does
        #expect(input.statusCode == 201)
        #expect(input.value(forHTTPHeaderField: "content-type") == "text/csv")
        #expect(ResponseInput().statusCode == nil)
        #expect(ResponseInput().response == nil)
    }
}
