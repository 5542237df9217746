import Testing

@testable import GannetRequestSerialization

@Suite("JSONRequestSerializer")
struct JSONRequestSerializerTests {
    private let base = "http://127.0.0.1:1/post"

    @Test("Parameters become a JSON body with application/json")
    func jsonBody() throws {
        // Given
        let serializer = JSONRequestSerializer(writingOptions: [.sortedKeys])
        let parameters: Parameters = [
            "b": [true, NSNull()] as [any Sendable], "a": 1, "c": ["d": "e"], "f": 2.5, "g": Decimal(string: "0.1")!,
            "h": NSNumber(value: false), "i": Int?.none,
        ]
        // When
        let request = try serializer.request(method: "POST", urlString: base, parameters: parameters)
        // Then
        #expect(
            String(decoding: try #require(request.httpBody), as: UTF8.self)
                == #"{"a":1,"b":[true,null],"c":{"d":"e"},"f":2.5,"g":0.1,"h":false,"i":null}"#
        )
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.url?.absoluteString == base)
    }

    @Test("A Content-Type the caller set is kept")
    func callerContentType() throws {
        var request = URLRequest(url: URL(string: base)!)
        request.httpMethod = "PUT"
        request.setValue("application/vnd.api+json", forHTTPHeaderField: "Content-Type")
        let result = try JSONRequestSerializer().request(byEncoding: ["a": 1], into: request)
        #expect(result.value(forHTTPHeaderField: "Content-Type") == "application/vnd.api+json")
    }

    @Test("GET, HEAD and DELETE still encode in the query string", arguments: ["GET", "HEAD", "DELETE"])
    func queryMethods(method: String) throws {
        let request = try JSONRequestSerializer().request(
            method: method,
            urlString: base,
            parameters: ["q": "a b", "n": [1, 2]]
        )
        #expect(request.url?.query == "n%5B%5D=1&n%5B%5D=2&q=a%20b")
        #expect(request.httpBody == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test("nil parameters leave the body alone; empty parameters give {}")
    func emptyParameters() throws {
        let serializer = JSONRequestSerializer()
        let none = try serializer.request(method: "POST", urlString: base, parameters: nil)
        #expect(none.httpBody == nil)
        #expect(none.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(try serializer.request(method: "POST", urlString: base, parameters: [:]).httpBody == Data("{}".utf8))
    }

    @Test("Values JSONSerialization cannot write are a typed error naming where they are")
    func invalidValues() throws {
        let cases: [(Parameters, String)] = [
            (["when": Date()], "\"when\" has type Date"),
            (["n": ["x": Double.nan] as [String: any Sendable]], "\"n.x\" has type Double"),
            (["list": [1, Data([1])] as [any Sendable]], "\"list[1]\" has type Data"),
            (["keys": [1: "a"]], "\"keys\" is a dictionary whose keys are not strings"),
        ]
        for (parameters, expected) in cases {
            let error = try #require(throws: RequestSerializationError.self) {
                try JSONRequestSerializer().request(method: "POST", urlString: base, parameters: parameters)
            }
            #expect(error.code == .jsonEncodingFailed)
            #expect(error.message.contains(expected), "\(error.message)")
            #expect(error.failingRequest?.url?.absoluteString == base)
        }
    }

    @Test("Writing options are applied")
    func writingOptions() throws {
        let request = try JSONRequestSerializer(writingOptions: [.sortedKeys, .withoutEscapingSlashes])
            .request(method: "POST", urlString: base, parameters: ["u": "a/b", "a": 1])
        #expect(request.httpBody == Data(#"{"a":1,"u":"a/b"}"#.utf8))
    }
}

@Suite("EncodableRequestSerializer and JSONEncodableBody")
struct EncodableRequestSerializerTests {
    private let base = "http://127.0.0.1:1/post"

    struct Bird: Encodable, Sendable {
        var name: String
        var seen: Date
        var wingspanMeters: Double
        var tags: [String]
    }

    private var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    @Test("An Encodable value is written by the caller's encoder")
    func encodableBody() throws {
        // Given
        let serializer = EncodableRequestSerializer(encoder: encoder)
        let bird = Bird(name: "Gannet", seen: Date(timeIntervalSince1970: 10), wingspanMeters: 1.8, tags: ["sea"])
        // When
        let request = try serializer.request(method: "POST", urlString: base, body: bird)
        // Then
        #expect(request.httpBody == Data(#"{"name":"Gannet","seen":10,"tags":["sea"],"wingspan_meters":1.8}"#.utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
    }

    @Test("Parameters go through the encoder's strategies, nested containers included")
    func encodableParameters() throws {
        let serializer = EncodableRequestSerializer(encoder: encoder)
        let parameters: Parameters = [
            "at": Date(timeIntervalSince1970: 5), "flag": true, "n": NSNumber(value: 7), "none": NSNull(),
            "list": [Date(timeIntervalSince1970: 1), "x"] as [any Sendable],
            "bird": Bird(name: "B", seen: Date(timeIntervalSince1970: 0), wingspanMeters: 1, tags: []),
        ]
        let request = try serializer.request(method: "POST", urlString: base, parameters: parameters)
        #expect(
            String(decoding: try #require(request.httpBody), as: UTF8.self)
                == #"{"at":5,"bird":{"name":"B","seen":0,"tags":[],"wingspan_meters":1},"flag":true,"list":[1,"x"],"n":7,"none":null}"#
        )
    }

    @Test("A value that is not Encodable is a typed error")
    func notEncodable() throws {
        final class Handle: Sendable {}
        let error = try #require(throws: RequestSerializationError.self) {
            try EncodableRequestSerializer().request(method: "POST", urlString: base, parameters: ["h": Handle()])
        }
        #expect(error.code == .jsonEncodingFailed)
        #expect(error.underlyingError is EncodingError)
    }

    @Test("For GET an Encodable value is written as a query string")
    func encodableQuery() throws {
        struct Search: Encodable, Sendable {
            var q: String
            var page: Int
            var exact: Bool
            var filter: [String: String]
        }
        let request = try EncodableRequestSerializer().request(
            method: "GET",
            urlString: base,
            body: Search(q: "a b", page: 2, exact: true, filter: ["kind": "bird"])
        )
        #expect(request.url?.query == "exact=1&filter%5Bkind%5D=bird&page=2&q=a%20b")
        #expect(request.httpBody == nil)
    }

    @Test("For GET a value that is not a JSON object is refused")
    func encodableQueryNotObject() throws {
        let error = try #require(throws: RequestSerializationError.self) {
            try EncodableRequestSerializer().request(method: "GET", urlString: base, body: [1, 2])
        }
        #expect(error.code == .jsonEncodingFailed)
    }

    @Test("JSONEncodableBody: parameters in the query, the value in the body")
    func boundBody() throws {
        // Given
        let body = JSONEncodableBody(["name": "Gannet"], encoder: encoder)
        var request = URLRequest(url: URL(string: base)!)
        request.httpMethod = "POST"
        // When
        let result = try body.request(byEncoding: ["dryRun": true], into: request)
        // Then
        #expect(result.url?.query == "dryRun=1")
        #expect(result.httpBody == Data(#"{"name":"Gannet"}"#.utf8))
        #expect(result.value(forHTTPHeaderField: "User-Agent") != nil)
    }

    @Test("The dot-syntax presets build the same serializers")
    func presets() throws {
        func build(_ serializer: some RequestSerializing, _ method: String) throws -> URLRequest {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:1/")!)
            request.httpMethod = method
            return try serializer.request(byEncoding: ["a": 1], into: request)
        }
        #expect(try build(.form, "POST").httpBody == Data("a=1".utf8))
        #expect(try build(.json, "POST").httpBody == Data(#"{"a":1}"#.utf8))
        #expect(try build(.encodable(), "POST").httpBody == Data(#"{"a":1}"#.utf8))
        #expect(try build(.jsonBody(["b": 2]), "POST").httpBody == Data(#"{"b":2}"#.utf8))
    }
}
