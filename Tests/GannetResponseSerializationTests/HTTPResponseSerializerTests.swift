import GannetResponseSerialization
import Testing

/// AFNetworking's `AFHTTPResponseSerializationTests`, and the rest of `validateResponse:data:error:`.
@Suite("HTTPResponseSerializer")
struct HTTPResponseSerializerTests {
    let serializer = HTTPResponseSerializer()
    let text = Fixture.data("text")

    @Test("Accepts every 2xx status code")
    func acceptsAll2xx() throws {
        for status in 200..<300 {
            // Given a 2xx response with a body
            let response = Fixture.response(status, contentType: "text/html")

            // When it is serialized / Then the body comes back unchanged
            #expect(serializer.acceptableStatusCodes.contains(status))
            #expect(try serializer.serialize(response, text) == text, "status \(status)")
        }
    }

    @Test("Rejects every 4xx and 5xx status code with AFNetworking's message")
    func rejectsAll4xx5xx() throws {
        for status in 400..<600 {
            // Given an error status with a body
            let response = Fixture.response(status, contentType: "text/html")

            // When it is serialized
            let error = try #require(serializationError { try serializer.serialize(response, text) })

            // Then an unacceptable-status error keeps the response and the body
            #expect(error.code == .unacceptableStatusCode)
            #expect(error.statusCode == status)
            #expect(error.data == text)
            #expect(error.response === response)
            #expect(error.message.hasPrefix("Request failed: ") && error.message.hasSuffix("(\(status))"))
        }
        let notFound = serializationError { try serializer.serialize(Fixture.response(404), nil) }
        #expect(notFound?.message == "Request failed: not found (404)")
    }

    @Test("205 with no Content-Type and no body is valid even when content types are restricted")
    func resetContentWithoutBody() throws {
        // Given a serializer that only accepts text/html, and a bare 205
        let serializer = HTTPResponseSerializer(acceptableContentTypes: ["text/html"])
        let response = Fixture.response(205)

        // When there is no body / Then it is accepted
        #expect(try serializer.serialize(response, nil) == Data())
        #expect(try serializer.serialize(response, Data()) == Data())

        // When the same response carries a body / Then it fails: a body without a type is not text/html
        let error = serializationError { try serializer.serialize(response, text) }
        #expect(error?.code == .unacceptableContentType)
        #expect(error?.message == "Request failed: unacceptable content-type: (none)")
    }

    @Test("An empty body is never rejected for its Content-Type")
    func emptyBodySkipsContentType() throws {
        // Given a JSON-only serializer and an empty text/html 200 (AFNetworking let it through)
        let serializer = HTTPResponseSerializer(acceptableContentTypes: [.json])

        // Then it is accepted
        #expect(try serializer.serialize(Fixture.response(200, contentType: "text/html"), Data()) == Data())
    }

    @Test("Rejects an unacceptable content type, naming it and keeping the body")
    func rejectsContentType() throws {
        // Given a JSON-only serializer and an HTML error page served as 200 (AFNetworking #3516)
        let serializer = HTTPResponseSerializer(acceptableContentTypes: [.json])
        let page = Fixture.data("<html><body>Maintenance</body></html>")

        // When it is serialized
        let error = try #require(
            serializationError {
                try serializer.serialize(Fixture.response(200, contentType: "text/html; charset=utf-8"), page)
            }
        )

        // Then
        #expect(error.code == .unacceptableContentType)
        #expect(error.message == "Request failed: unacceptable content-type: text/html")
        #expect(error.data == page)
        #expect(error.underlyingError == nil)
    }

    @Test("Checks the status after the content type and chains the content-type error under it")
    func chainsErrors() throws {
        // Given a response wrong in both ways
        let serializer = HTTPResponseSerializer(acceptableContentTypes: [.json])
        let response = Fixture.response(500, contentType: "text/html")

        // When it is serialized
        let error = try #require(serializationError { try serializer.serialize(response, text) })

        // Then the status error is on top and the content-type error underneath, both with the body
        #expect(error.code == .unacceptableStatusCode)
        #expect(error.message == "Request failed: internal server error (500)")
        let underlying = try #require(error.underlyingError as? ResponseSerializationError)
        #expect(underlying.code == .unacceptableContentType)
        #expect(underlying.data == text)
    }

    @Test("Content type parameters are ignored and ranges work")
    func contentTypeMatching() throws {
        let serializer = HTTPResponseSerializer(acceptableContentTypes: ["text/*", .json])
        #expect(try serializer.serialize(Fixture.response(200, contentType: "text/csv; charset=utf-8"), text) == text)
        #expect(try serializer.serialize(Fixture.response(200, contentType: "Application/JSON"), text) == text)
        #expect(
            serializationError { try serializer.serialize(Fixture.response(200, contentType: "image/png"), text) }?
                .message == "Request failed: unacceptable content-type: image/png"
        )
    }

    @Test("Unparseable Content-Type is shown as sent and rejected")
    func unparseableContentType() {
        let serializer = HTTPResponseSerializer(acceptableContentTypes: [.json])
        let error = serializationError {
            try serializer.serialize(Fixture.response(200, contentType: "json please"), text)
        }
        #expect(error?.code == .unacceptableContentType)
        #expect(error?.message == "Request failed: unacceptable content-type: json please")
    }

    @Test("Custom acceptable status codes")
    func customStatusCodes() throws {
        // Given a serializer that also accepts 304
        var serializer = HTTPResponseSerializer()
        serializer.acceptableStatusCodes.insert(304)

        // Then 304 passes, 301 does not
        #expect(try serializer.serialize(Fixture.response(304), nil) == Data())
        #expect(
            serializationError { try serializer.serialize(Fixture.response(301), nil) }?.code == .unacceptableStatusCode
        )
    }

    @Test("A transport error is rethrown before any validation")
    func rethrowsTransportError() {
        // Given a transport failure with an unacceptable response too
        let transport = URLError(.networkConnectionLost)

        // When serialized / Then the transport error wins
        #expect(throws: URLError(.networkConnectionLost)) {
            try serializer.serialize(request: nil, response: Fixture.response(500), data: text, error: transport)
        }
    }

    @Test("Without an HTTP response there is nothing to validate")
    func noResponse() throws {
        #expect(try serializer.serialize(nil, text) == text)
        #expect(try serializer.serialize(nil, nil) == Data())
    }

    @Test("Dot syntax gives the default serializer")
    func factory() {
        let serializer: HTTPResponseSerializer = .http
        #expect(serializer.acceptableStatusCodes == IndexSet(integersIn: 200..<300))
        #expect(serializer.acceptableContentTypes == nil)
    }
}
