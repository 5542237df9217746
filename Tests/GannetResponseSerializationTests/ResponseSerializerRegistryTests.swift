import GannetResponseSerialization
import Testing

@Suite("ResponseSerializerRegistry")
struct ResponseSerializerRegistryTests {
    /// `{"name": "gannet", "wingspan": 180, "tags": ["sea", "bird"], "dives": -3}`, hand-encoded
    /// byte by byte from the MessagePack specification.
    static let gannet: Data = {
        func str(_ text: String) -> [UInt8] { [0xA0 | UInt8(text.utf8.count)] + Array(text.utf8) }
        var bytes: [UInt8] = [0x84]  // fixmap, 4 pairs
        bytes += str("name") + str("gannet")
        bytes += str("wingspan") + [0xCC, 0xB4]  // uint8 180
        bytes += str("tags") + [0x92] + str("sea") + str("bird")  // fixarray, 2
        bytes += str("dives") + [0xFD]  // negative fixint -3
        return Data(bytes)
    }()

    var registry: ResponseSerializerRegistry {
        var registry = ResponseSerializerRegistry.standard
        registry.register(MessagePackSerializer(), for: ["application/msgpack"])
        return registry
    }

    @Test("A custom MessagePack serializer registered in one line handles application/msgpack")
    func messagePack() throws {
        // Given the standard registry plus MessagePack
        let registry = registry

        // When a MessagePack response arrives
        let value = try registry.serialize(Fixture.response(200, contentType: "application/msgpack"), Self.gannet)

        // Then the app's own type comes back through the registry
        let message = try #require(value as? MessagePackValue)
        #expect(message["name"] == .string("gannet"))
        #expect(message["wingspan"] == .uint(180))
        #expect(message["tags"] == .array([.string("sea"), .string("bird")]))
        #expect(message["dives"] == .int(-3))
    }

    @Test("Broken MessagePack is a decodingFailed error from the custom serializer, bounded")
    func brokenMessagePack() throws {
        let response = Fixture.response(200, contentType: "application/msgpack")
        let truncated = Self.gannet.prefix(10)
        let error = try #require(serializationError { try registry.serialize(response, Data(truncated)) })
        #expect(error.code == .decodingFailed)
        #expect(error.message.hasPrefix("MessagePack: string of 6 bytes truncated"))

        // A declared 4 GB map in five bytes neither allocates nor crashes
        let hostile = Data([0xDF, 0xFF, 0xFF, 0xFF, 0xFF])
        #expect(serializationError { try registry.serialize(response, hostile) }?.code == .decodingFailed)
        // Nor does deep nesting
        let deep = Data(repeating: 0x91, count: 100_000) + Data([0xC0])
        #expect(
            serializationError { try registry.serialize(response, deep) }?.message.contains("nested deeper than 64")
                == true
        )
        // And a huge binary body is quoted in at most 1 KB
        let garbage = Data([0xC1]) + Data(repeating: 0xAB, count: 1 << 20)
        let long = try #require(serializationError { try registry.serialize(response, garbage) })
        #expect(long.message.utf8.count <= ResponseSerializationError.maximumMessageBytes)
    }

    @Test(
        "The standard registry picks JSON, text and data by Content-Type",
        arguments: [
            ("application/json", #"{"a":1}"#, "json"),
            ("application/json; charset=utf-8", #"{"a":1}"#, "json"),
            ("application/problem+json", #"{"a":1}"#, "json"),
            ("text/javascript", #"{"a":1}"#, "json"),
            ("text/html; charset=utf-8", "<p>hi</p>", "text"),
            ("text/plain", "hi", "text"),
            ("image/png", "PNG", "data"),
        ]
    )
    func standardChoices(_ contentType: String, _ body: String, _ expected: String) throws {
        let value = try ResponseSerializerRegistry.standard.serialize(
            Fixture.response(200, contentType: contentType),
            Fixture.data(body)
        )
        switch expected {
        case "json": #expect((value as? [String: Any])?["a"] as? Int == 1)
        case "text": #expect(value as? String == body)
        default: #expect(value as? Data == Fixture.data(body))
        }
    }

    @Test("No Content-Type goes to the fallback")
    func noContentType() throws {
        let value = try ResponseSerializerRegistry.standard.serialize(Fixture.response(200), Fixture.data("raw"))
        #expect(value as? Data == Fixture.data("raw"))
    }

    @Test("The chosen entry's empty-body result is kept: JSON's nil stays nil")
    func flattensOptional() throws {
        let value = try ResponseSerializerRegistry.standard.serialize(
            Fixture.response(200, contentType: "application/json"),
            Data()
        )
        #expect(value == nil)
    }

    @Test("The first entry that accepts wins; .first placement puts a new entry ahead")
    func ordering() throws {
        // Given a registry where a CSV-ish serializer is registered for text/csv after text/*
        struct Lines: ResponseSerializing {
            func serialize(_ input: ResponseInput) throws -> [String] {
                String(decoding: input.data ?? Data(), as: UTF8.self).split(separator: "\n").map(String.init)
            }
        }
        var registry = ResponseSerializerRegistry.standard
        registry.register(Lines(), for: ["text/csv"])
        let response = Fixture.response(200, contentType: "text/csv")
        let body = Fixture.data("a,b\n1,2")

        // Then text/* (earlier) wins
        #expect(try registry.serialize(response, body) as? String == "a,b\n1,2")
        #expect(registry.entries.last?.mediaTypes == ["text/csv"])

        // When it is registered first instead / Then it wins
        registry.register(Lines(), for: ["text/csv"], placement: .first)
        #expect(try registry.serialize(response, body) as? [String] == ["a,b", "1,2"])
        #expect(registry.entries.first?.mediaTypes == ["text/csv"])
        #expect(registry.entry(for: response)?.mediaTypes == ["text/csv"])
        #expect(registry.entry(for: Fixture.response(200)) == nil)
    }

    @Test("A validating serializer accepts exactly the media types it is registered for")
    func registrationSetsAcceptableTypes() throws {
        // Given JSON registered for a vendor type it would not accept on its own
        var registry = ResponseSerializerRegistry()
        registry.register(JSONResponseSerializer(), for: ["application/vnd.acme"])
        let vendor = Fixture.response(200, contentType: "application/vnd.acme")

        // Then it parses that type
        let value = try registry.serialize(vendor, Fixture.data(#"{"ok":true}"#))
        #expect((value as? [String: Any])?["ok"] as? Bool == true)
        #expect(
            serializationError { try JSONResponseSerializer().serialize(vendor, Fixture.data("{}")) }?.code
                == .unacceptableContentType
        )
    }

    @Test("Without a fallback, unmatched responses are validated against the registered types")
    func noFallback() throws {
        // Given a registry with only MessagePack and no fallback
        var registry = ResponseSerializerRegistry()
        registry.register(MessagePackSerializer(), for: ["application/msgpack"])

        // Then a bare 204 is nil, an HTML body an unacceptable content type, an empty 500 a status error
        #expect(try registry.serialize(Fixture.response(204), nil) == nil)
        let html = try #require(
            serializationError {
                try registry.serialize(Fixture.response(200, contentType: "text/html"), Fixture.data("<p>"))
            }
        )
        #expect(html.code == .unacceptableContentType)
        #expect(html.message == "Request failed: unacceptable content-type: text/html")
        #expect(
            serializationError { try registry.serialize(Fixture.response(500), nil) }?.code == .unacceptableStatusCode
        )
    }

    @Test("An entry's validation errors are final: no other entry is tried")
    func entryErrorsAreFinal() throws {
        let error = try #require(
            serializationError {
                try registry.serialize(
                    Fixture.response(404, contentType: "application/json"),
                    Fixture.data(#"{"error":"nope"}"#)
                )
            }
        )
        #expect(error.code == .unacceptableStatusCode)
        #expect(error.data == Fixture.data(#"{"error":"nope"}"#))
    }

    @Test("A transport error is rethrown before any entry is chosen")
    func transportFirst() {
        #expect(throws: URLError(.cannotConnectToHost)) {
            try registry.serialize(
                request: nil,
                response: Fixture.response(200, contentType: "application/msgpack"),
                data: Self.gannet,
                error: URLError(.cannotConnectToHost)
            )
        }
    }

    @Test("Entries and the fallback can be built directly, and AnyResponseSerializer erases any output")
    func directConstruction() throws {
        let registry = ResponseSerializerRegistry(
            entries: [.init(DecodableResponseSerializer<[Int]>(), for: [.json])],
            fallback: AnyResponseSerializer(StringResponseSerializer())
        )
        #expect(
            try registry.serialize(Fixture.response(200, contentType: "application/json"), Fixture.data("[1,2]"))
                as? [Int] == [1, 2]
        )
        #expect(
            try registry.serialize(Fixture.response(200, contentType: "image/gif"), Fixture.data("GIF")) as? String
                == "GIF"
        )
        let dotSyntax: ResponseSerializerRegistry = .registry
        #expect(dotSyntax.entries.count == 2)
    }
}
