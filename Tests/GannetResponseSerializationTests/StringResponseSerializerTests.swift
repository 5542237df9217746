import GannetResponseSerialization
import Testing

@Suite("StringResponseSerializer")
struct StringResponseSerializerTests {
    let serializer = StringResponseSerializer()

    @Test(
        "Decodes with the declared charset",
        arguments: [
            ("text/plain; charset=utf-8", [0x63, 0x61, 0x66, 0xC3, 0xA9], "café"),
            ("text/plain; charset=\"UTF-8\"", [0xE2, 0x82, 0xAC], "€"),
            ("text/plain; charset=iso-8859-1", [0x63, 0x61, 0x66, 0xE9], "café"),
            ("text/plain; charset=latin1", [0xE9], "é"),
            ("text/html; charset=windows-1252", [0x80, 0x20, 0x93, 0x61, 0x94], "€ “a”"),
            ("text/plain; charset=Shift_JIS", [0x82, 0xA0], "あ"),
            ("text/plain; charset=utf-16le", [0x41, 0x00, 0x42, 0x00], "AB"),
            ("text/plain; charset=us-ascii", [0x6F, 0x6B], "ok"),
        ] as [(String, [UInt8], String)]
    )
    func declaredCharset(_ contentType: String, _ bytes: [UInt8], _ expected: String) throws {
        // Given a body in the declared charset / When serialized / Then the text
        #expect(try serializer.serialize(Fixture.response(200, contentType: contentType), Data(bytes)) == expected)
    }

    @Test("Without a charset, text falls back to ISO-8859-1 and JSON is UTF-8")
    func defaults() throws {
        let utf8 = Data([0x63, 0x61, 0x66, 0xC3, 0xA9])
        #expect(try serializer.serialize(Fixture.response(200, contentType: "text/plain"), Data([0xE9])) == "é")
        #expect(
            try serializer.serialize(Fixture.response(200, contentType: "text/plain"), utf8) == "cafÃ©",
            "Alamofire's ISO-8859-1 default"
        )
        #expect(try serializer.serialize(Fixture.response(200, contentType: "application/json"), utf8) == "café")
        #expect(
            try serializer.serialize(Fixture.response(200, contentType: "application/problem+json"), utf8) == "café"
        )
        #expect(try serializer.serialize(Fixture.response(200), Data([0xE9])) == "é", "no Content-Type at all")
    }

    @Test("The fallback encoding is configurable")
    func configurableFallback() throws {
        let serializer = StringResponseSerializer(fallbackEncoding: .utf8)
        #expect(try serializer.serialize(Fixture.response(200, contentType: "text/plain"), Data([0xC3, 0xA9])) == "é")
        #expect(
            try serializer.resolvedEncoding(for: Fixture.response(200, contentType: "text/plain; charset=latin2"))
                == .isoLatin2
        )
        #expect(try serializer.resolvedEncoding(for: nil) == .utf8)
    }

    @Test("A fixed encoding overrides the response")
    func fixedEncoding() throws {
        let serializer: StringResponseSerializer = .string(encoding: .windowsCP1252)
        #expect(
            try serializer.serialize(Fixture.response(200, contentType: "text/plain; charset=utf-8"), Data([0x80]))
                == "€"
        )
    }

    @Test("Invalid bytes for the charset are a typed error, not replacement characters")
    func invalidBytes() throws {
        // Given bytes that are not UTF-8 in a body declared UTF-8
        var body = Fixture.data("start ")
        body.append(contentsOf: [0xFF, 0xFE, 0xC3])
        let response = Fixture.response(200, contentType: "text/plain; charset=utf-8")

        // When serialized
        let error = try #require(serializationError { try serializer.serialize(response, body) })

        // Then
        #expect(error.code == .stringDecodingFailed)
        #expect(error.message.hasPrefix("Text could not be decoded as "))
        #expect(error.message.contains("body (9 bytes): start "))
        #expect(error.data == body)
    }

    @Test("A charset Gannet cannot decode is a typed error")
    func unknownCharset() throws {
        let error = try #require(
            serializationError {
                try serializer.serialize(
                    Fixture.response(200, contentType: "text/plain; charset=klingon-8"),
                    Fixture.data("x")
                )
            }
        )
        #expect(error.code == .stringDecodingFailed)
        #expect(error.message.hasPrefix("Text could not be decoded: unsupported charset \"klingon-8\""))
        #expect(throws: ResponseSerializationError.self) {
            try serializer.resolvedEncoding(for: Fixture.response(200, contentType: "text/plain; charset=euc-jp"))
        }
    }

    @Test("Empty bodies: \"\" for 204 and HEAD, an error for 200")
    func emptyBodies() throws {
        #expect(try serializer.serialize(Fixture.response(204), nil) == "")
        #expect(
            try serializer.serialize(
                request: Fixture.request("HEAD"),
                response: Fixture.response(200),
                data: nil,
                error: nil
            ) == ""
        )
        #expect(
            serializationError { try serializer.serialize(Fixture.response(200, contentType: "text/plain"), Data()) }?
                .code == .inputDataNilOrZeroLength
        )
    }

    @Test("Validates status and content type, and rethrows transport errors first")
    func validation() {
        var serializer = serializer
        serializer.acceptableContentTypes = ["text/*"]
        #expect(
            serializationError { try serializer.serialize(Fixture.response(200, contentType: "image/png"), Data([1])) }?
                .code == .unacceptableContentType
        )
        #expect(
            serializationError {
                try serializer.serialize(Fixture.response(418, contentType: "text/plain"), Fixture.data("teapot"))
            }?
            .code == .unacceptableStatusCode
        )
        #expect(throws: URLError(.cancelled)) {
            try serializer.serialize(request: nil, response: nil, data: nil, error: URLError(.cancelled))
        }
    }
}
