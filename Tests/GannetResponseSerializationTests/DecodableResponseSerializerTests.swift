import GannetResponseSerialization
import Testing

@Suite("DecodableResponseSerializer")
struct DecodableResponseSerializerTests {
    struct User: Codable, Sendable, Equatable {
        let id: Int
        let name: String
        var address: Address?
        struct Address: Codable, Sendable, Equatable { let zip: String }
    }

    let json = Fixture.response(200, contentType: "application/json")

    @Test("Decodes JSON with the default JSONDecoder, via dot syntax")
    func decodesJSON() throws {
        // Given a user document / When decoded / Then the value
        let serializer: DecodableResponseSerializer<User> = .decodable(of: User.self)
        let user = try serializer.serialize(json, Fixture.data(#"{"id":7,"name":"Ann","address":{"zip":"75001"}}"#))
        #expect(user == User(id: 7, name: "Ann", address: .init(zip: "75001")))
    }

    @Test("Uses the decoder it is given: a configured JSONDecoder")
    func configuredDecoder() throws {
        struct Event: Decodable, Sendable { let startedAt: Date }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let event = try DecodableResponseSerializer<Event>(decoder: decoder).serialize(
            json,
            Fixture.data(#"{"started_at":86400}"#)
        )
        #expect(event.startedAt == Date(timeIntervalSince1970: 86400))
    }

    @Test("Decodes a property list with PropertyListDecoder, accepting any content type")
    func decodesPropertyList() throws {
        // Given a binary plist served with a plist type
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let body = try encoder.encode(User(id: 1, name: "Plist"))

        // When decoded with PropertyListDecoder
        let serializer: DecodableResponseSerializer<User> = .decodable(of: User.self, decoder: PropertyListDecoder())
        let user = try serializer.serialize(Fixture.response(200, contentType: "application/x-plist"), body)

        // Then
        #expect(user == User(id: 1, name: "Plist"))
        #expect(serializer.acceptableContentTypes == nil)
    }

    @Test("Any DataDecoder works, such as an app's own")
    func customDecoder() throws {
        /// Decodes `key=value` lines into a flat `[String: String]`.
        struct LinesDecoder: DataDecoder {
            struct Unsupported: Error {}
            func decode<D: Decodable>(_ type: D.Type, from data: Data) throws -> D {
                var result: [String: String] = [:]
                for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                    let parts = line.split(separator: "=", maxSplits: 1)
                    if parts.count == 2 { result[String(parts[0])] = String(parts[1]) }
                }
                guard let value = result as? D else { throw Unsupported() }
                return value
            }
        }
        let serializer = DecodableResponseSerializer<[String: String]>(decoder: LinesDecoder())
        #expect(
            try serializer.serialize(Fixture.response(200, contentType: "text/plain"), Fixture.data("a=1\nb=2")) == [
                "a": "1", "b": "2",
            ]
        )
    }

    @Test("204, 205 and an accepted 304 give Empty (SECURITY-CASES 30)", arguments: [204, 205, 304])
    func emptyCodes(_ status: Int) throws {
        var serializer = DecodableResponseSerializer<Empty>()
        serializer.acceptableStatusCodes.insert(304)
        #expect(try serializer.serialize(Fixture.response(status), nil) == Empty.value)
        #expect(try serializer.serialize(Fixture.response(status), Data()) == Empty())
    }

    @Test("HEAD gives Empty on a 200 without a body")
    func headGivesEmpty() throws {
        let value = try DecodableResponseSerializer<Empty>()
            .serialize(request: Fixture.request("HEAD"), response: json, data: Data(), error: nil)
        #expect(value == Empty.value)
    }

    @Test("An app's own EmptyResponse type works too")
    func customEmptyResponse() throws {
        struct NoContent: Decodable, Sendable, Equatable, EmptyResponse {
            let marker: String
            static func emptyValue() -> NoContent { NoContent(marker: "none") }
        }
        #expect(
            try DecodableResponseSerializer<NoContent>().serialize(Fixture.response(204), nil)
                == NoContent(marker: "none")
        )
    }

    @Test("A 204 for a type that is not EmptyResponse is a typed error")
    func emptyForNonEmptyType() throws {
        let error = try #require(
            serializationError { try DecodableResponseSerializer<User>().serialize(Fixture.response(204), nil) }
        )
        #expect(error.code == .inputDataNilOrZeroLength)
        #expect(error.message.contains("cannot be decoded as User"))
    }

    @Test("A 200 with an empty body is an error even for Empty (Alamofire's rule); {} decodes as Empty")
    func emptyOK() throws {
        let serializer = DecodableResponseSerializer<Empty>()
        #expect(serializationError { try serializer.serialize(json, Data()) }?.code == .inputDataNilOrZeroLength)
        #expect(try serializer.serialize(json, Fixture.data("{}")) == Empty.value)
        // And an app that wants 200-without-body to be fine says so
        var lenient = serializer
        lenient.emptyResponseCodes.insert(200)
        #expect(try lenient.serialize(json, Data()) == Empty.value)
    }

    @Test("A decoding failure says what and where, with the body excerpt and the DecodingError underneath")
    func decodingFailure() throws {
        // Given a document whose nested zip has the wrong type
        let body = Fixture.data(#"{"id":7,"name":"Ann","address":{"zip":75001}}"#)

        // When decoded
        let error = try #require(serializationError { try DecodableResponseSerializer<User>().serialize(json, body) })

        // Then
        #expect(error.code == .decodingFailed)
        #expect(error.message.hasPrefix("User could not be decoded: type mismatch for String at address.zip: "))
        #expect(error.message.hasSuffix("— body (\(body.count) bytes): \(String(decoding: body, as: UTF8.self))"))
        #expect(error.underlyingError is DecodingError)

        let missing = serializationError {
            try DecodableResponseSerializer<User>().serialize(json, Fixture.data(#"[{"id":1}]"#))
        }
        #expect(missing?.message.hasPrefix("User could not be decoded: type mismatch for ") == true)
        let noName = serializationError {
            try DecodableResponseSerializer<User>().serialize(json, Fixture.data(#"{"id":1}"#))
        }
        #expect(noName?.message.hasPrefix("User could not be decoded: missing key 'name'") == true)
    }

    @Test("With JSONDecoder, an HTML page is rejected by content type; status errors come first")
    func validation() throws {
        let serializer = DecodableResponseSerializer<User>()
        #expect(serializer.acceptableContentTypes == JSONResponseSerializer.defaultAcceptableContentTypes)
        let page = Fixture.data("<html>login</html>")
        #expect(
            serializationError { try serializer.serialize(Fixture.response(200, contentType: "text/html"), page) }?
                .code == .unacceptableContentType
        )
        #expect(
            serializationError {
                try serializer.serialize(Fixture.response(401, contentType: "application/json"), Fixture.data("{}"))
            }?
            .code == .unacceptableStatusCode
        )
        #expect(throws: URLError(.secureConnectionFailed)) {
            try serializer.serialize(request: nil, response: nil, data: nil, error: URLError(.secureConnectionFailed))
        }
    }

    @Test("The data preprocessor runs before decoding")
    func preprocessor() throws {
        let serializer = DecodableResponseSerializer<[Int]>(dataPreprocessor: .xssiPrefix)
        #expect(try serializer.serialize(json, Fixture.data(")]}',\n[1,2,3]")) == [1, 2, 3])
    }
}
