import Testing

@testable import GannetRequestSerialization

/// Golden cases for AFNetworking's query-string encoding rules. Each expected string is written
/// out by hand from the rules in `QueryStringEncoder`'s documentation.
@Suite("Query string encoding")
struct QueryStringEncodingTests {
    private func query(
        _ parameters: Parameters,
        _ configure: (inout RequestSerializerConfiguration) -> Void = { _ in }
    ) throws -> String {
        var serializer = HTTPRequestSerializer()
        configure(&serializer.configuration)
        return try serializer.queryString(from: parameters)
    }

    @Test("A plain pair is written key=value")
    func plainPair() throws {
        // Given / When / Then
        #expect(try query(["key": "value"]) == "key=value")
    }

    @Test("RFC 3986 reserved characters are escaped, / and ? are not")
    func reservedCharacters() throws {
        // Given AFNetworking's own golden case
        let parameters: Parameters = ["key": " :#[]@!$&'()*+,;=/?"]
        // When
        let result = try query(parameters)
        // Then
        #expect(result == "key=%20%3A%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D/?")
    }

    @Test("Unreserved characters stay as they are")
    func unreservedCharacters() throws {
        #expect(try query(["k": "AZaz09-._~"]) == "k=AZaz09-._~")
    }

    @Test("+ is always %2B, whatever the space encoding")
    func plusSign() throws {
        #expect(try query(["a+b": "c+d"]) == "a%2Bb=c%2Bd")
        #expect(try query(["a+b": "c+d e"]) { $0.spaceEncoding = .plus } == "a%2Bb=c%2Bd+e")
    }

    @Test("% is escaped as %25, so an already-escaped value is not mistaken for an escape")
    func percentSign() throws {
        #expect(try query(["p": "100%", "q": "%20"]) == "p=100%25&q=%2520")
    }

    @Test("Space is %20 by default and + when asked")
    func space() throws {
        #expect(try query(["q": "a b"]) == "q=a%20b")
        #expect(try query(["q a": "a b"]) { $0.spaceEncoding = .plus } == "q+a=a+b")
    }

    @Test("Control characters and non-ASCII text are escaped as UTF-8 bytes")
    func controlAndUnicode() throws {
        #expect(try query(["k": "a\r\n\u{0}é€"]) == "k=a%0D%0A%00%C3%A9%E2%82%AC")
    }

    @Test("Nested dictionaries become key[sub], sorted")
    func nestedDictionary() throws {
        let parameters: Parameters = ["user": ["name": "Ann", "age": 30] as [String: any Sendable]]
        #expect(try query(parameters) == "user%5Bage%5D=30&user%5Bname%5D=Ann")
    }

    @Test("Deeply nested dictionaries keep every level")
    func deepDictionary() throws {
        let parameters: Parameters = ["a": ["b": ["c": ["d": "e"]]]]
        #expect(try query(parameters) == "a%5Bb%5D%5Bc%5D%5Bd%5D=e")
    }

    @Test("Arrays: brackets by default, no brackets, indexed")
    func arrays() throws {
        let parameters: Parameters = ["tags": ["a", "b"]]
        #expect(try query(parameters) == "tags%5B%5D=a&tags%5B%5D=b")
        #expect(try query(parameters) { $0.arrayEncoding = .noBrackets } == "tags=a&tags=b")
        #expect(try query(parameters) { $0.arrayEncoding = .indexed } == "tags%5B0%5D=a&tags%5B1%5D=b")
        #expect(
            try query(parameters) { $0.arrayEncoding = .init { key, index in "\(key).\(index)" } }
                == "tags.0=a&tags.1=b"
        )
    }

    @Test("Arrays of dictionaries and arrays of arrays")
    func nestedArrays() throws {
        let items: Parameters = ["items": [["id": 1, "q": 2], ["id": 3]] as [[String: Int]]]
        #expect(try query(items) == "items%5B%5D%5Bid%5D=1&items%5B%5D%5Bq%5D=2&items%5B%5D%5Bid%5D=3")
        #expect(
            try query(items) { $0.arrayEncoding = .indexed }
                == "items%5B0%5D%5Bid%5D=1&items%5B0%5D%5Bq%5D=2&items%5B1%5D%5Bid%5D=3"
        )
        let matrix: Parameters = ["m": [[1, 2], [3]]]
        #expect(try query(matrix) == "m%5B%5D%5B%5D=1&m%5B%5D%5B%5D=2&m%5B%5D%5B%5D=3")
        #expect(
            try query(matrix) { $0.arrayEncoding = .indexed } == "m%5B0%5D%5B0%5D=1&m%5B0%5D%5B1%5D=2&m%5B1%5D%5B0%5D=3"
        )
    }

    @Test("Empty containers write nothing; empty parameters give an empty query")
    func emptyContainers() throws {
        let parameters: Parameters = [
            "a": [String](), "b": [String: String](), "c": "x", "d": Set<String>(), "e": ["f": [Int]()],
        ]
        #expect(try query(parameters) == "c=x")
        #expect(try query([:]) == "")
        #expect(try query(["only": [String]()]) == "")
    }

    @Test("Empty strings keep their key and =")
    func emptyString() throws {
        #expect(try query(["e": "", "": "v"]) == "=v&e=")
    }

    @Test("Keys are sorted by Unicode order, stable and locale-independent")
    func sortedKeys() throws {
        let parameters: Parameters = ["b": 1, "a": 2, "C": 3, "é": 4, "aa": 5, "_": 6, "1": 7]
        // Unicode order: "1" (U+0031) < "C" (U+0043) < "_" (U+005F) < "a" < "aa" < "b" < "é" (U+00E9)
        #expect(try query(parameters) == "1=7&C=3&_=6&a=2&aa=5&b=1&%C3%A9=4")
    }

    @Test("Non-string dictionary keys are written and sorted by description")
    func nonStringKeys() throws {
        let parameters: Parameters = ["d": [2: "two", 10: "ten"]]
        #expect(try query(parameters) == "d%5B10%5D=ten&d%5B2%5D=two")
    }

    @Test("Sets repeat the key, sorted by description")
    func sets() throws {
        #expect(try query(["s": Set(["b", "a", "c"])]) == "s=a&s=b&s=c")
    }

    @Test("Bool: 1/0 by default, true/false when literal; NSNumber booleans too")
    func bools() throws {
        let parameters: Parameters = ["t": true, "f": false, "n": NSNumber(value: true), "i": NSNumber(value: 1)]
        #expect(try query(parameters) == "f=0&i=1&n=1&t=1")
        #expect(try query(parameters) { $0.boolEncoding = .literal } == "f=false&i=1&n=true&t=true")
    }

    @Test("Booleans decoded by JSONSerialization are booleans, integers are integers")
    func jsonSerializationNumbers() throws {
        let object = try JSONSerialization.jsonObject(with: Data(#"{"b":true,"i":1,"d":2.5}"#.utf8)) as! [String: Any]
        let parameters: Parameters = [
            "b": object["b"] as! NSNumber, "i": object["i"] as! NSNumber, "d": object["d"] as! NSNumber,
        ]
        #expect(try query(parameters) { $0.boolEncoding = .literal } == "b=true&d=2.5&i=1")
    }

    @Test("Numbers: integers, Double and Float without a trailing .0, Decimal, NSNumber")
    func numbers() throws {
        let parameters: Parameters = [
            "a": 42, "b": -7, "c": 1.5, "d": 2.0, "e": 1e-7, "f": Decimal(string: "3.14")!,
            "g": Float(0.25), "h": UInt8(255), "i": Int64.max, "j": NSNumber(value: 2.5), "k": Float(3),
        ]
        #expect(
            try query(parameters) == "a=42&b=-7&c=1.5&d=2&e=1e-07&f=3.14&g=0.25&h=255&i=9223372036854775807&j=2.5&k=3"
        )
    }

    @Test("nil and NSNull write the bare key; Optional values are unwrapped")
    func nullValues() throws {
        let parameters: Parameters = ["n": NSNull(), "o": Int?.none, "s": Int?.some(3), "x": String??.some(.none)]
        #expect(try query(parameters) == "n&o&s=3&x")
    }

    @Test("Date: ISO 8601 by default, seconds or milliseconds since 1970 when asked")
    func dates() throws {
        let parameters: Parameters = ["d": Date(timeIntervalSince1970: 1.5)]
        #expect(try query(["d": Date(timeIntervalSince1970: 0)]) == "d=1970-01-01T00%3A00%3A00Z")
        #expect(try query(parameters) { $0.dateEncoding = .secondsSince1970 } == "d=1.5")
        #expect(try query(parameters) { $0.dateEncoding = .millisecondsSince1970 } == "d=1500")
    }

    @Test("Data: Base64 by default, Base64url or hex when asked")
    func data() throws {
        let parameters: Parameters = ["d": Data([0xFB, 0xFF, 0x3F])]
        #expect(try query(["d": Data("hello".utf8)]) == "d=aGVsbG8%3D")
        #expect(try query(parameters) == "d=%2B/8/")
        #expect(try query(parameters) { $0.dataEncoding = .base64URL } == "d=-_8_")
        #expect(try query(parameters) { $0.dataEncoding = .hex } == "d=fbff3f")
    }

    @Test("URL, UUID, raw-value enums and Character have a text form")
    func otherLeaves() throws {
        enum Color: String { case red }
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let parameters: Parameters = [
            "u": URL(string: "http://x/a?b=c")!, "id": uuid, "c": Color.red, "ch": Character("&"),
        ]
        #expect(try query(parameters) == "c=red&ch=%26&id=E621E1F8-C36C-495A-93FC-0C247A3E6E5F&u=http%3A//x/a?b%3Dc")
    }

    @Test("A value with no text form is a typed error, not a debug description")
    func unsupportedValue() throws {
        struct Opaque: Sendable {}
        let error = try #require(throws: RequestSerializationError.self) { try query(["o": Opaque()]) }
        #expect(error.code == .parameterEncodingFailed)
        #expect(error.message.contains("Opaque"))
    }

    @Test("Keys with spaces and brackets are escaped whole")
    func oddKeys() throws {
        #expect(try query(["a b[c]": "1"]) == "a%20b%5Bc%5D=1")
    }

    @Test("Another string encoding escapes its bytes; unrepresentable text is an error")
    func stringEncoding() throws {
        #expect(try query(["k": "é"]) { $0.stringEncoding = .isoLatin1 } == "k=%E9")
        let error = try #require(throws: RequestSerializationError.self) {
            try query(["k": "🐦"]) { $0.stringEncoding = .isoLatin1 }
        }
        #expect(error.code == .parameterEncodingFailed)
    }
}
