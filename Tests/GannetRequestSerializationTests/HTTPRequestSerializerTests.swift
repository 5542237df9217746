import Testing

@testable import GannetRequestSerialization

@Suite("HTTPRequestSerializer")
struct HTTPRequestSerializerTests {
    private let base = "http://127.0.0.1:1/path"

    // MARK: Query string or body

    @Test("GET, HEAD and DELETE put the parameters in the query string", arguments: ["GET", "HEAD", "DELETE", "get"])
    func queryMethods(method: String) throws {
        // Given
        let serializer = HTTPRequestSerializer()
        // When
        let request = try serializer.request(method: method, urlString: base, parameters: ["b": "2", "a": "1"])
        // Then
        #expect(request.url?.absoluteString == "http://127.0.0.1:1/path?a=1&b=2")
        #expect(request.httpBody == nil)
        #expect(request.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test("An existing query is extended with &, a fragment stays last")
    func existingQueryAndFragment() throws {
        let serializer = HTTPRequestSerializer()
        let extended = try serializer.request(method: "GET", urlString: base + "?x=1", parameters: ["y": "2"])
        #expect(extended.url?.absoluteString == "http://127.0.0.1:1/path?x=1&y=2")
        let fragment = try serializer.request(method: "GET", urlString: base + "#top", parameters: ["y": "2"])
        #expect(fragment.url?.absoluteString == "http://127.0.0.1:1/path?y=2#top")
        let emptyQuery = try serializer.request(method: "GET", urlString: base + "?", parameters: ["y": "2"])
        #expect(emptyQuery.url?.absoluteString == "http://127.0.0.1:1/path?y=2")
    }

    @Test("Empty or nil parameters leave the URL unchanged")
    func emptyQuery() throws {
        let serializer = HTTPRequestSerializer()
        #expect(try serializer.request(method: "GET", urlString: base, parameters: [:]).url?.absoluteString == base)
        #expect(try serializer.request(method: "GET", urlString: base, parameters: nil).url?.absoluteString == base)
        #expect(
            try serializer.request(method: "GET", urlString: base, parameters: ["e": [Int]()]).url?.absoluteString
                == base
        )
    }

    @Test("POST, PUT and PATCH get a URL-encoded form body", arguments: ["POST", "PUT", "PATCH"])
    func formBody(method: String) throws {
        // Given
        let serializer = HTTPRequestSerializer()
        // When
        let request = try serializer.request(
            method: method,
            urlString: base,
            parameters: ["name": "Gannet bird", "n": 2]
        )
        // Then
        #expect(request.url?.absoluteString == base)
        #expect(request.httpMethod == method)
        #expect(request.httpBody == Data("n=2&name=Gannet%20bird".utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test("A Content-Type the caller set is never replaced")
    func callerContentType() throws {
        var request = URLRequest(url: URL(string: base)!)
        request.httpMethod = "POST"
        request.setValue("text/plain", forHTTPHeaderField: "content-type")
        let result = try HTTPRequestSerializer().request(byEncoding: ["a": "1"], into: request)
        #expect(result.value(forHTTPHeaderField: "Content-Type") == "text/plain")
        #expect(result.httpBody == Data("a=1".utf8))
    }

    @Test("Empty parameters give an empty form body; nil gives no body at all")
    func emptyBody() throws {
        let serializer = HTTPRequestSerializer()
        let empty = try serializer.request(method: "POST", urlString: base, parameters: [:])
        #expect(empty.httpBody == Data())
        #expect(empty.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
        let none = try serializer.request(method: "POST", urlString: base, parameters: nil)
        #expect(none.httpBody == nil)
        #expect(none.value(forHTTPHeaderField: "Content-Type") == nil)
    }

    @Test("methodsEncodingParametersInURI can be changed")
    func customMethods() throws {
        var serializer = HTTPRequestSerializer()
        serializer.configuration.methodsEncodingParametersInURI = ["GET", "HEAD", "POST"]
        let post = try serializer.request(method: "POST", urlString: base, parameters: ["a": "1"])
        #expect(post.url?.query == "a=1")
        #expect(post.httpBody == nil)
        let delete = try serializer.request(method: "DELETE", urlString: base, parameters: ["a": "1"])
        #expect(delete.url?.query == nil)
        #expect(delete.httpBody == Data("a=1".utf8))
    }

    @Test("Space as + in a form body; + still %2B")
    func plusInBody() throws {
        var serializer = HTTPRequestSerializer()
        serializer.configuration.spaceEncoding = .plus
        let request = try serializer.request(method: "POST", urlString: base, parameters: ["q": "1 + 1"])
        #expect(request.httpBody == Data("q=1+%2B+1".utf8))
    }

    @Test("Another string encoding is named in the charset")
    func latin1Body() throws {
        var serializer = HTTPRequestSerializer()
        serializer.configuration.stringEncoding = .isoLatin1
        let request = try serializer.request(method: "POST", urlString: base, parameters: ["k": "café"])
        #expect(request.httpBody == Data("k=caf%E9".utf8))
        #expect(
            request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded; charset=iso-8859-1"
        )
    }

    // MARK: Custom query string

    @Test("A custom query closure replaces the encoding")
    func customQuery() throws {
        var serializer = HTTPRequestSerializer()
        serializer.configuration.queryStringSerialization = .init { request, parameters in
            "method=\(request.httpMethod ?? "")&" + parameters.keys.sorted().joined(separator: ",")
        }
        let get = try serializer.request(method: "GET", urlString: base, parameters: ["b": 1, "a": 2])
        #expect(get.url?.query == "method=GET&a,b")
        let post = try serializer.request(method: "POST", urlString: base, parameters: ["b": 1])
        #expect(post.httpBody == Data("method=POST&b".utf8))
    }

    @Test("A throwing custom query closure fails with its error and the failing request")
    func throwingCustomQuery() throws {
        struct Refused: Error {}
        var serializer = HTTPRequestSerializer()
        serializer.configuration.queryStringSerialization = .init { _, _ in throw Refused() }
        let error = try #require(throws: RequestSerializationError.self) {
            try serializer.request(method: "GET", urlString: base, parameters: ["a": 1])
        }
        #expect(error.code == .queryStringSerializationFailed)
        #expect(error.underlyingError is Refused)
        #expect(error.failingRequest?.url?.absoluteString == base)
    }

    @Test(
        "A custom query with characters a URL cannot hold is refused, not rewritten",
        arguments: ["a b", "a#b", "a\nb", "é"]
    )
    func invalidCustomQuery(query: String) throws {
        var serializer = HTTPRequestSerializer()
        serializer.configuration.queryStringSerialization = .init { _, _ in query }
        let error = try #require(throws: RequestSerializationError.self) {
            try serializer.request(method: "GET", urlString: base, parameters: ["a": 1])
        }
        #expect(error.code == .queryStringSerializationFailed)
    }

    // MARK: Headers

    @Test("Default headers: User-Agent names Gannet and the platform; Accept-Language the locale")
    func defaultHeaders() throws {
        let request = try HTTPRequestSerializer().request(method: "GET", urlString: base)
        let userAgent = try #require(request.value(forHTTPHeaderField: "User-Agent"))
        #expect(userAgent.wholeMatch(of: /Gannet\/0\.1 \(Linux; [A-Za-z0-9_]+\) Swift\/6/) != nil, "\(userAgent)")
        #expect(
            request.value(forHTTPHeaderField: "Accept-Language")
                == DefaultHeaders.acceptLanguage(Locale.preferredLanguages)
        )
    }

    @Test("Accept-Language uses AFNetworking's q-values and stops at 0.5")
    func acceptLanguage() {
        let languages = ["en-GB", "fr", "de", "es_ES", "it", "pt", "nl"]
        #expect(
            DefaultHeaders.acceptLanguage(languages) == "en-GB;q=1, fr;q=0.9, de;q=0.8, es-ES;q=0.7, it;q=0.6, pt;q=0.5"
        )
        #expect(DefaultHeaders.acceptLanguage(["en"]) == "en;q=1")
        #expect(DefaultHeaders.acceptLanguage([]) == nil)
    }

    @Test("Per-request headers win over defaults, compared case-insensitively")
    func requestHeadersWin() throws {
        // Given
        var serializer = HTTPRequestSerializer()
        serializer.setValue("application/json", forHTTPHeaderField: "accept")
        serializer.setValue("default", forHTTPHeaderField: "X-Default")
        var request = URLRequest(url: URL(string: base)!)
        request.setValue("text/plain", forHTTPHeaderField: "Accept")
        // When
        let result = try serializer.request(byEncoding: nil, into: request)
        // Then
        #expect(result.value(forHTTPHeaderField: "Accept") == "text/plain")
        #expect(result.value(forHTTPHeaderField: "X-Default") == "default")
    }

    @Test("Defaults land with the names URLRequest.setValue gives them, beside the request's own fields")
    func defaultsLandAsSetValueWouldStoreThem() throws {
        // Given: defaults in several cases, and a request with a field of its own in lower case
        var serializer = HTTPRequestSerializer()
        serializer.setValue("key", forHTTPHeaderField: "x-api-key")
        serializer.setValue("1", forHTTPHeaderField: "DNT")
        var request = URLRequest(url: URL(string: base)!)
        request.allHTTPHeaderFields = ["user-agent": "mine"]
        // When
        let result = try serializer.request(byEncoding: nil, into: request)
        // Then: the same fields, under the same names, as setting each default with setValue
        var expected = request
        for (name, value) in serializer.httpRequestHeaders where request.value(forHTTPHeaderField: name) == nil {
            expected.setValue(value, forHTTPHeaderField: name)
        }
        #expect(result.allHTTPHeaderFields == expected.allHTTPHeaderFields)
        #expect(result.allHTTPHeaderFields?["X-Api-Key"] == "key")
        #expect(result.allHTTPHeaderFields?["user-agent"] == "mine")
        #expect(result.allHTTPHeaderFields?.keys.contains("User-Agent") == false)
    }

    @Test("setValue replaces a default whatever its case, nil removes it")
    func setValueCaseInsensitive() throws {
        var serializer = HTTPRequestSerializer()
        serializer.setValue("a", forHTTPHeaderField: "X-Thing")
        serializer.setValue("b", forHTTPHeaderField: "x-thing")
        #expect(serializer.httpRequestHeaders.keys.filter { $0.lowercased() == "x-thing" }.count == 1)
        #expect(serializer.value(forHTTPHeaderField: "X-THING") == "b")
        serializer.setValue(nil, forHTTPHeaderField: "X-Thing")
        #expect(serializer.value(forHTTPHeaderField: "x-thing") == nil)
        serializer.setValue(nil, forHTTPHeaderField: "User-Agent")
        #expect(try serializer.request(method: "GET", urlString: base).value(forHTTPHeaderField: "User-Agent") == nil)
    }

    @Test("Basic authorization follows RFC 7617's examples; clearing removes it")
    func basicAuthorization() throws {
        var serializer = HTTPRequestSerializer()
        serializer.setAuthorizationHeader(username: "Aladdin", password: "open sesame")
        #expect(
            try serializer.request(method: "GET", urlString: base).value(forHTTPHeaderField: "Authorization")
                == "Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ=="
        )
        serializer.setAuthorizationHeader(username: "test", password: "123\u{A3}")
        #expect(serializer.value(forHTTPHeaderField: "Authorization") == "Basic dGVzdDoxMjPCow==")
        serializer.clearAuthorizationHeader()
        #expect(
            try serializer.request(method: "GET", urlString: base).value(forHTTPHeaderField: "Authorization") == nil
        )
    }

    // MARK: Request options

    @Test("Timeout, cache policy and cookies apply to requests that kept URLRequest's defaults")
    func requestOptions() throws {
        // Given
        var serializer = HTTPRequestSerializer()
        serializer.configuration.timeoutInterval = 5
        serializer.configuration.cachePolicy = .reloadIgnoringLocalCacheData
        serializer.configuration.httpShouldHandleCookies = false
        // When
        let defaulted = try serializer.request(method: "GET", urlString: base)
        var own = URLRequest(url: URL(string: base)!, cachePolicy: .returnCacheDataElseLoad, timeoutInterval: 30)
        own.httpShouldHandleCookies = true
        let kept = try serializer.request(byEncoding: nil, into: own)
        // Then
        #expect(defaulted.timeoutInterval == 5)
        #expect(defaulted.cachePolicy == .reloadIgnoringLocalCacheData)
        #expect(defaulted.httpShouldHandleCookies == false)
        #expect(kept.timeoutInterval == 30)
        #expect(kept.cachePolicy == .returnCacheDataElseLoad)
        #expect(kept.httpShouldHandleCookies == false, "true is URLRequest's default, so the option applies")
    }

    @Test("Unset options leave the request alone")
    func unsetOptions() throws {
        let request = try HTTPRequestSerializer().request(method: "GET", urlString: base)
        let plain = URLRequest(url: URL(string: base)!)
        #expect(request.timeoutInterval == plain.timeoutInterval)
        #expect(request.cachePolicy == plain.cachePolicy)
        #expect(request.httpShouldHandleCookies == plain.httpShouldHandleCookies)
    }

    @Test(
        "A URL string with spaces or control characters is refused, not rewritten",
        arguments: [
            "http://a b/", "http://x/a b", "http://x/a\r\nb", "http://x/\u{0}", "http://x/\u{7F}", "not a url", "",
        ]
    )
    func invalidURLString(text: String) throws {
        let error = try #require(throws: GannetError.self) {
            try HTTPRequestSerializer().request(method: "GET", urlString: text)
        }
        #expect(error.code == .invalidRequest)
        #expect(error.failingRequest == nil)
    }

    @Test("Non-ASCII characters in a URL string are percent-encoded as UTF-8")
    func unicodeURLString() throws {
        let request = try HTTPRequestSerializer().request(
            method: "GET",
            urlString: "http://127.0.0.1:1/caf\u{E9}",
            parameters: ["q": "\u{E9}"]
        )
        #expect(request.url?.absoluteString == "http://127.0.0.1:1/caf%C3%A9?q=%C3%A9")
    }

    @Test("The serializer is a Sendable value shared safely by concurrent tasks")
    func concurrentUse() async throws {
        var serializer = HTTPRequestSerializer()
        serializer.setValue("shared", forHTTPHeaderField: "X-Shared")
        let frozen = serializer
        let urls = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<200 {
                group.addTask {
                    let request = try frozen.request(
                        method: "GET",
                        urlString: "http://127.0.0.1:1/",
                        parameters: ["i": index]
                    )
                    #expect(request.value(forHTTPHeaderField: "X-Shared") == "shared")
                    return request.url!.absoluteString
                }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(urls == Set((0..<200).map { "http://127.0.0.1:1/?i=\($0)" }))
    }
}
