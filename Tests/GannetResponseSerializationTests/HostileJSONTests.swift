import GannetResponseSerialization
import Testing

/// SECURITY-CASES 28 and 31: hostile JSON ends in a typed error (or a documented value), never a
/// crash, and no error quotes more than 1 KB of the body.
@Suite("Hostile JSON")
struct HostileJSONTests {
    let json = JSONResponseSerializer(readingOptions: .fragmentsAllowed)
    let response = Fixture.response(200, contentType: "application/json")

    struct Numbers: Decodable, Sendable { let a: Int }
    struct Unsigned: Decodable, Sendable { let a: UInt64 }
    struct Real: Decodable, Sendable { let a: Double }

    /// Checks that `error` is bounded everywhere an app might print it.
    func expectBounded(_ error: ResponseSerializationError, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            error.message.utf8.count <= ResponseSerializationError.maximumMessageBytes,
            sourceLocation: sourceLocation
        )
        #expect(
            error.description.utf8.count <= ResponseSerializationError.maximumMessageBytes + 200,
            sourceLocation: sourceLocation
        )
        if let underlying = error.underlyingError {
            #expect(String(describing: underlying).utf8.count <= 2048, sourceLocation: sourceLocation)
        }
    }

    @Test("100,000-deep nesting fails fast with a typed error (Foundation caps depth at 512)")
    func deepNesting() throws {
        // Given 100,000 nested arrays, closed and unclosed
        let closed =
            Data(repeating: UInt8(ascii: "["), count: 100_000) + Data(repeating: UInt8(ascii: "]"), count: 100_000)
        let unclosed = Data(repeating: UInt8(ascii: "{"), count: 100_000)

        for body in [closed, unclosed] {
            // When JSON and Decodable serializers read them / Then typed, bounded errors
            let jsonError = try #require(serializationError { try json.serialize(response, body) })
            #expect(jsonError.code == .jsonDecodingFailed)
            expectBounded(jsonError)

            let decodable = DecodableResponseSerializer<[String]>()
            let decodeError = try #require(serializationError { try decodable.serialize(response, body) })
            #expect(decodeError.code == .decodingFailed)
            expectBounded(decodeError)
        }
    }

    @Test("Depth 512 is accepted and 513 refused: the limit this documentation states")
    func depthLimit() throws {
        func nested(_ depth: Int) -> Data {
            Data(repeating: UInt8(ascii: "["), count: depth) + Data(repeating: UInt8(ascii: "]"), count: depth)
        }
        var value = try json.serialize(response, nested(512))
        var depth = 0
        while let array = value as? [any Sendable] {
            depth += 1
            value = array.first
        }
        #expect(depth == 512)
        let error = serializationError { try json.serialize(response, nested(513)) }
        #expect(error?.message.contains("Too many nested arrays or dictionaries") == true)

        // JSONDecoder has the same limit
        let decodable = DecodableResponseSerializer<Nested>()
        #expect(try decodable.serialize(response, nested(512)).depth == 512)
        #expect(serializationError { try decodable.serialize(response, nested(513)) }?.code == .decodingFailed)
    }

    /// Arrays of arrays, as deep as the document goes.
    struct Nested: Decodable, Sendable {
        let depth: Int
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var deepest = 0
            while !container.isAtEnd { deepest = max(deepest, try container.decode(Nested.self).depth) }
            depth = deepest + 1
        }
    }

    @Test("Duplicate keys: JSONSerialization keeps the last, JSONDecoder the first")
    func duplicateKeys() throws {
        let body = Fixture.data(#"{"a":1,"a":2}"#)
        let object = try #require(try json.serialize(response, body) as? [String: Any])
        #expect(object["a"] as? Int == 2)
        #expect(try DecodableResponseSerializer<Numbers>().serialize(response, body).a == 1)
    }

    @Test("2^63 is an exact unsigned number; decoding it as Int is a typed error")
    func twoToThe63() throws {
        let body = Fixture.data(#"{"a":9223372036854775808}"#)
        let object = try #require(try json.serialize(response, body) as? [String: Any])
        #expect(object["a"] as? UInt64 == 9_223_372_036_854_775_808)
        #expect(object["a"] as? Int == nil)
        #expect(try DecodableResponseSerializer<Unsigned>().serialize(response, body).a == 9_223_372_036_854_775_808)
        let error = try #require(
            serializationError { try DecodableResponseSerializer<Numbers>().serialize(response, body) }
        )
        #expect(error.code == .decodingFailed)
    }

    @Test("Integers beyond 64 bits become NSDecimalNumber")
    func beyond64Bits() throws {
        let value = try json.serialize(response, Fixture.data("123456789012345678901234567890"))
        #expect(value is NSDecimalNumber)
        #expect(value as? Decimal == Decimal(string: "123456789012345678901234567890"))
    }

    @Test("1e400 is out of range: a typed error from both serializers")
    func hugeExponent() throws {
        let body = Fixture.data(#"{"a":1e400}"#)
        let error = try #require(serializationError { try json.serialize(response, body) })
        #expect(error.code == .jsonDecodingFailed)
        #expect(error.message.contains("1e400"))
        #expect(
            serializationError { try DecodableResponseSerializer<Real>().serialize(response, body) }?.code
                == .decodingFailed
        )
    }

    @Test("A 1 MB number is reported in at most 1 KB, although Foundation quotes it whole")
    func megabyteNumber() throws {
        // Given a number of a million digits
        let body = Fixture.data("[" + String(repeating: "9", count: 1_000_000) + "e999]")

        // When parsed
        let error = try #require(serializationError { try json.serialize(response, body) })

        // Then the error is typed and every printable part of it is short
        #expect(error.code == .jsonDecodingFailed)
        expectBounded(error)
        #expect((error.underlyingError as? NSError)?.code == 3840, "still Foundation's error code")
        #expect(error.data?.count == body.count)
    }

    @Test(
        "Truncated, garbage and invalid UTF-8 bodies are typed, bounded errors",
        arguments: [
            Fixture.data(#"{"users":[{"id":1,"name":"Ann"},{"id":2,"na"#),
            Fixture.data("<!DOCTYPE html>" + String(repeating: "<p>garbage</p>\n", count: 100_000)),
            Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0xFD, 0x22, 0x7D]),
            Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }),
        ]
    )
    func malformed(_ body: Data) throws {
        let jsonError = try #require(serializationError { try json.serialize(response, body) })
        #expect(jsonError.code == .jsonDecodingFailed)
        expectBounded(jsonError)

        let decodeError = try #require(
            serializationError { try DecodableResponseSerializer<Numbers>().serialize(response, body) }
        )
        #expect(decodeError.code == .decodingFailed)
        expectBounded(decodeError)
        #expect(decodeError.data == body)
    }
}
