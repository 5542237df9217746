import Testing

@testable import GannetRequestSerialization

/// SECURITY-CASES 14 and 15: nothing is sent that the caller did not mean.
@Suite("Request validation")
struct RequestValidationTests {
    private let url = URL(string: "http://127.0.0.1:1/path")!

    /// Every serializer of the module, so that each one is shown to validate.
    static let serializers: [any ConfigurableRequestSerializer] = [
        HTTPRequestSerializer(), JSONRequestSerializer(), EncodableRequestSerializer(),
        JSONEncodableBody(["k": "v"]),
        MultipartRequestSerializer { try $0.appendPart(formData: Data("x".utf8), name: "x") },
    ]

    @Test(
        "A default header value with CR LF fails every serializer with invalidHeader",
        arguments: 0..<serializers.count
    )
    func crlfInDefaultValue(index: Int) throws {
        // Given
        var serializer = Self.serializers[index]
        serializer.setValue("a\r\nX-Injected: 1", forHTTPHeaderField: "X-Note")
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        // When
        let error = try #require(throws: GannetError.self) {
            try serializer.request(byEncoding: ["p": 1], into: request)
        }
        // Then
        #expect(error.code == .invalidHeader)
        #expect(error.failingRequest?.url == url)
        #expect(!error.message.contains("Injected"), "values may be credentials and stay out of messages")
    }

    @Test("A header name that is not a token fails every serializer", arguments: 0..<serializers.count)
    func badNameOnRequest(index: Int) throws {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        // URLRequest drops bad values silently but keeps bad names.
        request.setValue("v", forHTTPHeaderField: "Bad Name\r\n")
        let error = try #require(throws: GannetError.self) {
            try Self.serializers[index].request(byEncoding: nil, into: request)
        }
        #expect(error.code == .invalidHeader)
        #expect(error.failingRequest?.value(forHTTPHeaderField: "Bad Name\r\n") == "v")
    }

    @Test(
        "CR, LF, NUL, other controls and DEL in a value are refused",
        arguments: ["a\rb", "a\nb", "a\u{0}b", "a\u{1}b", "a\u{7F}b"]
    )
    func badValues(value: String) throws {
        var serializer = HTTPRequestSerializer()
        serializer.setValue(value, forHTTPHeaderField: "X-Value")
        let error = try #require(throws: GannetError.self) {
            try serializer.request(method: "GET", urlString: url.absoluteString)
        }
        #expect(error.code == .invalidHeader)
    }

    @Test("Names with separators or controls are refused", arguments: ["", "a b", "a:b", "a\u{0}", "a\"b", "(x)", "é"])
    func badNames(name: String) throws {
        #expect(!RequestValidation.isValidHeaderName(name))
        var serializer = HTTPRequestSerializer()
        serializer.setValue("v", forHTTPHeaderField: name)
        #expect(throws: GannetError.self) { try serializer.request(method: "GET", urlString: url.absoluteString) }
    }

    @Test("Tabs, spaces and UTF-8 text are valid values; token punctuation is a valid name")
    func validHeaders() throws {
        var serializer = HTTPRequestSerializer()
        serializer.setValue("a\tb c café", forHTTPHeaderField: "X-Ok!#$%&'*+-.^_`|~")
        let request = try serializer.request(method: "GET", urlString: url.absoluteString)
        #expect(request.value(forHTTPHeaderField: "X-Ok!#$%&'*+-.^_`|~") == "a\tb c café")
    }

    @Test("A method that is not a token is refused", arguments: ["GE T", "GET\r\n", "", "GET\u{0}", "G(E)T"])
    func badMethods(method: String) throws {
        var request = URLRequest(url: url)
        request.httpMethod = method
        let error = try #require(throws: GannetError.self) {
            try HTTPRequestSerializer().request(byEncoding: nil, into: request)
        }
        #expect(error.code == .invalidRequest)
        #expect(error.failingRequest?.httpMethod == method)
    }

    @Test("Custom methods that are tokens pass")
    func customMethod() throws {
        var request = URLRequest(url: url)
        request.httpMethod = "PROPFIND"
        #expect(try HTTPRequestSerializer().request(byEncoding: ["a": 1], into: request).httpBody == Data("a=1".utf8))
    }

    @Test(
        "Hosts smuggling control characters or spaces, missing hosts and bad ports are refused",
        arguments: [
            "http://a%0Ab/", "http://a%20b/x", "http://%00/", "http:///x", "https://", "http:x", "http://x:99999/",
        ]
    )
    func badURLs(text: String) throws {
        let error = try #require(throws: GannetError.self) {
            try HTTPRequestSerializer().request(byEncoding: nil, into: URLRequest(url: URL(string: text)!))
        }
        #expect(error.code == .invalidRequest)
        #expect(error.failingRequest?.url?.absoluteString == text)
    }

    @Test("The error's failing URL drops credentials; the failing request keeps the caller's request")
    func credentialsStripped() throws {
        let text = "http://user:secret@a%0Ab/"
        let error = try #require(throws: GannetError.self) {
            try HTTPRequestSerializer().request(byEncoding: nil, into: URLRequest(url: URL(string: text)!))
        }
        #expect(error.failingURL?.password == nil)
        #expect(!error.description.contains("secret"))
        #expect(error.failingRequest?.url?.absoluteString == text)
    }

    @Test("A request without a URL is refused")
    func noURL() throws {
        var request = URLRequest(url: url)
        request.url = nil
        let error = try #require(throws: GannetError.self) { try RequestValidation.validate(request) }
        #expect(error.code == .invalidRequest)
    }

    @Test("Other schemes pass validation and are left to the engine")
    func otherSchemes() throws {
        try RequestValidation.validate(URLRequest(url: URL(string: "ftp://example.invalid/file")!))
    }

    @Test("The wrapped error carries the same code and request")
    func underlyingError() throws {
        var request = URLRequest(url: url)
        request.httpMethod = "B A D"
        let error = try #require(throws: GannetError.self) { try RequestValidation.validate(request) }
        let underlying = try #require(error.underlyingError as? RequestSerializationError)
        #expect(underlying.code == .invalidRequest)
        #expect(underlying.failingRequest?.httpMethod == "B A D")
    }
}
