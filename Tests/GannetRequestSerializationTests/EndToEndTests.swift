import GannetTestSupport
import Testing

@testable import GannetRequestSerialization

/// Round trips through httpbin on loopback: what httpbin echoes (`args`, `form`, `json`,
/// `files`) equals what the serializers sent, with the body sent by Gannet's engine.
@Suite("End to end through httpbin")
struct EndToEndTests {
    /// Sends `request` and returns httpbin's JSON echo, parsed with JSONSerialization.
    private func echo(_ request: URLRequest) async throws -> [String: Any] {
        let manager = SessionManager(configuration: .default)
        defer { manager.finishTasksAndInvalidate() }
        let (data, response) = try await manager.data(for: request)
        #expect(response.statusCode == 200, "\(String(decoding: data.prefix(500), as: UTF8.self))")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    private func url(_ path: String) throws -> String {
        try TestServers.shared().httpbin.appendingPathComponent(path).absoluteString
    }

    /// Parameters that exercise every encoding rule at once.
    static let parameters: Parameters = [
        "q": "a b+c%d",
        "reserved": " :#[]@!$&'()*+,;=/?",
        "emoji": "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466} e\u{301} \u{1F1EB}\u{1F1F7}",
        "tags": ["x", "y"],
        "user": ["name": "Ann", "age": 30] as [String: any Sendable],
        "flag": true,
        "empty": "",
        "nothing": [String](),
    ]

    /// What httpbin reports for ``parameters``: one value per key, a list for repeated keys.
    static var echoed: [String: Any] {
        [
            "q": "a b+c%d",
            "reserved": " :#[]@!$&'()*+,;=/?",
            "emoji": "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466} e\u{301} \u{1F1EB}\u{1F1F7}",
            "tags[]": ["x", "y"],
            "user[name]": "Ann",
            "user[age]": "30",
            "flag": "1",
            "empty": "",
        ]
    }

    @Test("GET /get and DELETE /delete: args equal the parameters", arguments: [("GET", "get"), ("DELETE", "delete")])
    func queryRoundTrip(method: String, path: String) async throws {
        // Given
        let request = try HTTPRequestSerializer().request(
            method: method,
            urlString: url(path),
            parameters: Self.parameters
        )
        // When
        let echo = try await echo(request)
        // Then
        #expect(
            NSDictionary(dictionary: try #require(echo["args"] as? [String: Any]))
                == NSDictionary(dictionary: Self.echoed)
        )
    }

    @Test(
        "POST /post, PUT /put, PATCH /patch: form equals the parameters",
        arguments: [("POST", "post"), ("PUT", "put"), ("PATCH", "patch")]
    )
    func formRoundTrip(method: String, path: String) async throws {
        let request = try HTTPRequestSerializer().request(
            method: method,
            urlString: url(path),
            parameters: Self.parameters
        )
        let echo = try await echo(request)
        #expect(
            NSDictionary(dictionary: try #require(echo["form"] as? [String: Any]))
                == NSDictionary(dictionary: Self.echoed)
        )
        #expect((echo["args"] as? [String: Any])?.isEmpty == true)
    }

    @Test("/anything with indexed arrays, literal booleans and + for spaces")
    func anythingOptions() async throws {
        var serializer = HTTPRequestSerializer()
        serializer.configuration.arrayEncoding = .indexed
        serializer.configuration.boolEncoding = .literal
        serializer.configuration.spaceEncoding = .plus
        let request = try serializer.request(
            method: "GET",
            urlString: url("anything"),
            parameters: ["list": ["a b", "c+d"], "on": false]
        )
        let echo = try await echo(request)
        #expect(
            NSDictionary(dictionary: try #require(echo["args"] as? [String: Any]))
                == NSDictionary(dictionary: ["list[0]": "a b", "list[1]": "c+d", "on": "false"])
        )
        #expect(echo["method"] as? String == "GET")
    }

    @Test(
        "JSON to /post, /put, /patch, /anything: json equals the parameters",
        arguments: [("POST", "post"), ("PUT", "put"), ("PATCH", "patch"), ("POST", "anything")]
    )
    func jsonRoundTrip(method: String, path: String) async throws {
        // Given
        let parameters: Parameters = [
            "name": "Gannet \u{1F426}", "count": 3, "ratio": 0.5, "ok": true, "none": NSNull(),
            "nested": ["list": [1, 2, 3], "deep": ["x": "y"]] as [String: any Sendable],
        ]
        let request = try JSONRequestSerializer().request(method: method, urlString: url(path), parameters: parameters)
        // When
        let echo = try await echo(request)
        // Then
        let sent = try JSONSerialization.jsonObject(with: try #require(request.httpBody)) as! [String: Any]
        #expect(
            NSDictionary(dictionary: try #require(echo["json"] as? [String: Any])) == NSDictionary(dictionary: sent)
        )
        #expect((echo["json"] as? [String: Any])?["ok"] as? Bool == true)
        #expect((echo["headers"] as? [String: Any])?["Content-Type"] as? String == "application/json")
    }

    @Test("An Encodable body to /post: json equals the value")
    func encodableRoundTrip() async throws {
        struct Sighting: Encodable, Sendable {
            var bird: String
            var at: Date
            var count: Int
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var request = URLRequest(url: URL(string: try url("post"))!)
        request.httpMethod = "POST"
        request = try JSONEncodableBody(
            Sighting(bird: "gannet", at: Date(timeIntervalSince1970: 0), count: 2),
            encoder: encoder
        )
        .request(byEncoding: ["source": "test"], into: request)
        let echo = try await echo(request)
        #expect(
            NSDictionary(dictionary: try #require(echo["json"] as? [String: Any]))
                == NSDictionary(dictionary: ["bird": "gannet", "at": "1970-01-01T00:00:00Z", "count": 2])
        )
        #expect(echo["args"] as? [String: String] == ["source": "test"])
    }

    @Test("Default headers and Basic authorization reach the server")
    func headersRoundTrip() async throws {
        var serializer = HTTPRequestSerializer()
        serializer.setAuthorizationHeader(username: "user", password: "pa:ss")
        serializer.setValue("gannet-test", forHTTPHeaderField: "X-Gannet")
        let request = try serializer.request(method: "GET", urlString: url("basic-auth/user/pa:ss"))
        let manager = SessionManager(configuration: .default)
        defer { manager.finishTasksAndInvalidate() }
        let (_, response) = try await manager.data(for: request)
        #expect(response.statusCode == 200)

        let headers = try #require(
            try await echo(serializer.request(method: "GET", urlString: url("headers")))["headers"] as? [String: Any]
        )
        #expect(headers["X-Gannet"] as? String == "gannet-test")
        #expect((headers["User-Agent"] as? String)?.hasPrefix("Gannet/0.1 (Linux; ") == true)
    }

    @Test("A multipart upload with two files and fields: files and form equal what was sent")
    func multipartRoundTrip() async throws {
        // Given two files on disk and form fields
        let first = try TemporaryFile(bytes: Data("first file\n".utf8), name: "first.txt")
        let secondBytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 % 26 + 97) })
        let second = try TemporaryFile(bytes: secondBytes, name: "second.csv")
        let request = try HTTPRequestSerializer().multipartFormRequest(
            method: "POST",
            urlString: url("post"),
            parameters: ["title": "Two files", "tags": ["a", "b"], "n": 7]
        ) { form in
            try form.appendPart(fileURL: first.url, name: "first")
            try form.appendPart(fileURL: second.url, name: "second", fileName: "renamed.csv", mimeType: "text/csv")
            try form.appendPart(
                inputStream: InputStream(data: Data("from a stream".utf8)),
                name: "streamed",
                fileName: "s.txt",
                length: 13,
                mimeType: "text/plain"
            )
            try form.appendPart(formData: Data("caf\u{E9}".utf8), name: "note")
        }
        // When
        let echo = try await echo(request)
        // Then
        let files = try #require(echo["files"] as? [String: Any])
        #expect(
            NSDictionary(dictionary: files)
                == NSDictionary(dictionary: [
                    "first": "first file\n", "second": String(decoding: secondBytes, as: UTF8.self),
                    "streamed": "from a stream",
                ])
        )
        #expect(
            NSDictionary(dictionary: try #require(echo["form"] as? [String: Any]))
                == NSDictionary(dictionary: [
                    "title": "Two files", "tags[]": ["a", "b"], "n": "7", "note": "caf\u{E9}",
                ])
        )
        let headers = try #require(echo["headers"] as? [String: Any])
        #expect(headers["Content-Length"] as? String == request.value(forHTTPHeaderField: "Content-Length"))
        #expect((headers["Content-Type"] as? String)?.hasPrefix("multipart/form-data; boundary=Boundary+") == true)
    }

    @Test("Hostile multipart names arrive escaped, as exactly the parts sent")
    func hostileNames() async throws {
        let request = try HTTPRequestSerializer().multipartFormRequest(method: "POST", urlString: url("post")) { form in
            try form.appendPart(formData: Data("1".utf8), name: "a\"b")
            try form.appendPart(
                formData: Data("2".utf8),
                name: "c\r\nContent-Disposition: form-data; name=\"injected\""
            )
            try form.appendPart(data: Data("3".utf8), name: "f", fileName: "x\".txt\r\n", mimeType: "text/plain")
        }
        let echo = try await echo(request)
        let form = try #require(echo["form"] as? [String: Any])
        let files = try #require(echo["files"] as? [String: Any])
        #expect(form.count == 2)
        #expect(files.count == 1)
        #expect(form["injected"] == nil)
        // Werkzeug decodes %22 back to a quote (as the HTML standard's parser does) and keeps
        // %0D%0A as written: either way the name is the one sent, and no header was injected.
        #expect(form["a\"b"] as? String == "1")
        #expect(form["c%0D%0AContent-Disposition: form-data; name=\"injected\""] as? String == "2")
        #expect(files["f"] as? String == "3")
    }
}
