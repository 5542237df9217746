import GannetResponseSerialization
import Testing

@Suite("DataResponseSerializer and preprocessors")
struct DataResponseSerializerTests {
    let serializer = DataResponseSerializer()

    @Test("Returns the validated body")
    func returnsBody() throws {
        // Given a 200 with a body / When serialized / Then the same bytes
        let body = Data([0, 1, 2, 255])
        #expect(try serializer.serialize(Fixture.response(200, contentType: "application/octet-stream"), body) == body)
    }

    @Test("An empty 200 is an error: a body was expected (Alamofire #852)", arguments: [nil, Data()])
    func emptyOKFails(_ data: Data?) throws {
        let error = try #require(serializationError { try serializer.serialize(Fixture.response(200), data) })
        #expect(error.code == .inputDataNilOrZeroLength)
        #expect(error.message == "Response (200) has an empty body, but a body was expected")
    }

    @Test("204, 205 and an accepted 304 give empty Data", arguments: [204, 205, 304])
    func emptyStatusCodes(_ status: Int) throws {
        // Given a serializer that also accepts 304 (validation runs first, like AFNetworking)
        var serializer = serializer
        serializer.acceptableStatusCodes.insert(304)

        // Then an empty body for these codes is the empty value
        #expect(try serializer.serialize(Fixture.response(status), nil) == Data())
    }

    @Test("304 with the default acceptable codes fails validation before the empty-body rule")
    func notModifiedNeedsAcceptance() {
        #expect(
            serializationError { try serializer.serialize(Fixture.response(304), nil) }?.code == .unacceptableStatusCode
        )
    }

    @Test("HEAD allows an empty body on any acceptable status")
    func headAllowsEmpty() throws {
        let value = try serializer.serialize(
            request: Fixture.request("HEAD"),
            response: Fixture.response(200, contentType: "text/html"),
            data: Data(),
            error: nil
        )
        #expect(value == Data())
        // While GET does not
        #expect(
            serializationError {
                try serializer.serialize(
                    request: Fixture.request("GET"),
                    response: Fixture.response(200),
                    data: Data(),
                    error: nil
                )
            }?.code == .inputDataNilOrZeroLength
        )
    }

    @Test("Custom empty-response codes and methods")
    func customEmptyRules() throws {
        let serializer = DataResponseSerializer(emptyResponseCodes: [200], emptyRequestMethods: ["DELETE"])
        #expect(try serializer.serialize(Fixture.response(200), nil) == Data())
        #expect(
            try serializer.serialize(
                request: Fixture.request("delete"),
                response: Fixture.response(202),
                data: nil,
                error: nil
            ) == Data()
        )
        #expect(
            serializationError { try serializer.serialize(Fixture.response(204), nil) }?.code
                == .inputDataNilOrZeroLength
        )
    }

    @Test("Rethrows a transport error, then validates")
    func errorsFirst() {
        #expect(throws: URLError(.timedOut)) {
            try serializer.serialize(request: nil, response: nil, data: nil, error: URLError(.timedOut))
        }
        #expect(
            serializationError { try serializer.serialize(Fixture.response(503), Fixture.data("busy")) }?.code
                == .unacceptableStatusCode
        )
    }

    @Test("The XSSI preprocessor strips )]}' with or without a comma, and nothing else")
    func xssi() throws {
        let preprocessor = XSSIPrefixPreprocessor()
        #expect(preprocessor.preprocess(Fixture.data(")]}',\n{\"a\":1}")) == Fixture.data("{\"a\":1}"))
        #expect(preprocessor.preprocess(Fixture.data(")]}'\n[1]")) == Fixture.data("[1]"))
        #expect(
            preprocessor.preprocess(Fixture.data(")]}',[1]")) == Fixture.data(")]}',[1]"),
            "no newline: not the prefix"
        )
        #expect(preprocessor.preprocess(Fixture.data("[1]")) == Fixture.data("[1]"))
        #expect(preprocessor.preprocess(Fixture.data(")]}',\n")) == Data())
        #expect(preprocessor.preprocess(Fixture.data(")]}',\n[1]"))[0] == UInt8(ascii: "["), "indexable from zero")
    }

    @Test("A preprocessor runs on the body, and its error reaches the caller")
    func preprocessorHook() throws {
        struct Reversing: DataPreprocessor { func preprocess(_ data: Data) -> Data { Data(data.reversed()) } }
        struct Refusing: DataPreprocessor {
            struct Refused: Error, Equatable {}
            func preprocess(_ data: Data) throws -> Data { throw Refused() }
        }
        // Given serializers with each preprocessor
        let reversing = DataResponseSerializer(dataPreprocessor: Reversing())
        let refusing = DataResponseSerializer(dataPreprocessor: Refusing())

        // Then the transformation applies, and the failure is rethrown
        #expect(try reversing.serialize(Fixture.response(200), Fixture.data("abc")) == Fixture.data("cba"))
        #expect(throws: Refusing.Refused()) { try refusing.serialize(Fixture.response(200), Fixture.data("abc")) }
        #expect(try refusing.serialize(Fixture.response(204), nil) == Data(), "no body, nothing to preprocess")
    }

    @Test("Dot syntax")
    func factory() throws {
        let serializer: DataResponseSerializer = .data
        #expect(try serializer.serialize(Fixture.response(200), Fixture.data("x")) == Fixture.data("x"))
    }
}
