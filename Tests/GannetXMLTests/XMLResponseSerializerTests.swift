import GannetXML
import Testing

@Suite("XML response serializers")
struct XMLResponseSerializerTests {
    static let url = URL(string: "http://127.0.0.1/feed")!
    static let body = Data("<r><item>one</item><item>two</item></r>".utf8)

    func response(status: Int = 200, contentType: String? = "application/xml") -> HTTPURLResponse {
        HTTPURLResponse(
            url: Self.url,
            statusCode: status,
            httpVersion: "HTTP/1.1",
            headerFields: contentType.map { ["Content-Type": $0] } ?? [:]
        )!
    }

    struct ItemCollector: XMLEventHandler, Sendable {
        var items: [String] = []
        var inItem = false
        mutating func startElement(
            name: String,
            prefix: String?,
            namespaceURI: String?,
            attributes: [XMLAttribute],
            namespaces: [XMLNamespaceDeclaration]
        ) {
            inItem = name == "item"
        }
        mutating func characters(_ text: String) { if inItem { items.append(text) } }
        mutating func endElement(name: String, prefix: String?, namespaceURI: String?) { inItem = false }
    }

    @Test(arguments: [
        "application/xml", "text/xml", "text/xml; charset=utf-8", "Application/XML", "application/atom+xml",
        "application/rss+xml;charset=UTF-8", "image/svg+xml", "application/vnd.gannet.feed+xml",
    ])
    func acceptsXMLMediaTypes(contentType: String) throws {
        // Given
        let serializer = XMLDocumentResponseSerializer()
        // When
        let document = try serializer.serialize(
            request: nil,
            response: response(contentType: contentType),
            data: Self.body,
            error: nil
        )
        // Then
        #expect(document.root?.elements(named: "item").map(\.text) == ["one", "two"])
    }

    @Test(arguments: [
        "application/json", "text/html", "text/plain", "application/xml-dtd-not", "application/xmlx", "xml",
    ])
    func rejectsOtherMediaTypesKeepingTheBody(contentType: String) throws {
        // Given
        let serializer = XMLDocumentResponseSerializer()
        // When
        let error = #expect(throws: ResponseSerializationError.self) {
            try serializer.serialize(
                request: nil,
                response: response(contentType: contentType),
                data: Self.body,
                error: nil
            )
        }
        // Then
        #expect(error?.code == .unacceptableContentType)
        #expect(error?.data == Self.body)
        #expect(error?.response?.statusCode == 200)
    }

    @Test func aMissingContentTypeIsRejected() {
        // Given
        let serializer = XMLDocumentResponseSerializer()
        // When
        let error = #expect(throws: ResponseSerializationError.self) {
            try serializer.serialize(request: nil, response: response(contentType: nil), data: Self.body, error: nil)
        }
        // Then
        #expect(error?.code == .unacceptableContentType)
        #expect(error?.message.contains("(none)") == true)
    }

    @Test func anyContentTypeWhenTheSetIsNil() throws {
        // Given
        var serializer = XMLDocumentResponseSerializer()
        serializer.acceptableContentTypes = nil
        // When
        let document = try serializer.serialize(
            request: nil,
            response: response(contentType: "text/plain"),
            data: Self.body,
            error: nil
        )
        // Then
        #expect(document.root?.name == "r")
    }

    @Test(arguments: [199, 300, 304, 404, 500])
    func rejectsStatusCodesOutside2xx(status: Int) {
        // Given
        let serializer = XMLDocumentResponseSerializer()
        // When
        let error = #expect(throws: ResponseSerializationError.self) {
            try serializer.serialize(
                request: nil,
                response: response(status: status, contentType: "text/html"),
                data: Self.body,
                error: nil
            )
        }
        // Then: the status failure wins and carries the content-type failure.
        #expect(error?.code == .unacceptableStatusCode)
        #expect((error?.underlyingError as? ResponseSerializationError)?.code == .unacceptableContentType)
        #expect(error?.description.contains(Self.url.absoluteString) == true)
    }

    @Test func acceptableStatusCodesCanBeWidened() throws {
        // Given
        var serializer = XMLDocumentResponseSerializer()
        serializer.acceptableStatusCodes.insert(404)
        // When
        let document = try serializer.serialize(
            request: nil,
            response: response(status: 404),
            data: Self.body,
            error: nil
        )
        // Then
        #expect(document.root?.name == "r")
    }

    @Test(arguments: [204, 205, 304])
    func emptyBodiesOfNoContentStatusesGiveTheEmptyDocument(status: Int) throws {
        // Given
        var serializer = XMLDocumentResponseSerializer()
        serializer.acceptableStatusCodes.insert(304)
        // When
        let document = try serializer.serialize(
            request: nil,
            response: response(status: status, contentType: nil),
            data: Data(),
            error: nil
        )
        // Then
        #expect(document.root == nil)
    }

    @Test func aHeadRequestGivesTheEmptyDocument() throws {
        // Given
        var request = URLRequest(url: Self.url)
        request.httpMethod = "HEAD"
        // When
        let document = try XMLDocumentResponseSerializer().serialize(
            request: request,
            response: response(),
            data: nil,
            error: nil
        )
        // Then
        #expect(document.root == nil)
    }

    @Test func anEmptyBodyOn200IsAnError() {
        // Given
        let serializer = XMLDocumentResponseSerializer()
        // When
        let error = #expect(throws: ResponseSerializationError.self) {
            try serializer.serialize(request: nil, response: response(), data: Data(), error: nil)
        }
        // Then
        #expect(error?.code == .inputDataNilOrZeroLength)
    }

    @Test func aTransportErrorIsRethrown() {
        // Given
        let transport = URLError(.timedOut)
        // When
        let error = #expect(throws: URLError.self) {
            try XMLDocumentResponseSerializer().serialize(request: nil, response: nil, data: nil, error: transport)
        }
        // Then
        #expect(error?.code == .timedOut)
    }

    @Test(arguments: ["<r><unclosed></r>", "not xml at all", "<r>\u{0}</r>"])
    func garbageIsAParsingErrorWithAShortExcerpt(body: String) throws {
        // Given: a large malformed body.
        let data = Data((body + String(repeating: "\n<padding>\u{1}</padding>", count: 10_000)).utf8)
        // When
        let error = #expect(throws: ResponseSerializationError.self) {
            try XMLDocumentResponseSerializer().serialize(request: nil, response: response(), data: data, error: nil)
        }
        // Then
        #expect(error?.code == .decodingFailed)
        #expect(error?.underlyingError is XMLError)
        #expect((error?.message.utf8.count ?? .max) <= 1024)
        #expect(error?.message.contains("\n") == false)
        #expect(error?.data == data)
    }

    @Test func hostileBodiesAreRefusedWithTheParserError() throws {
        // Given
        let billion = Data("<!DOCTYPE l [<!ENTITY a \"aaaa\"><!ENTITY b \"&a;&a;&a;&a;\">]><l>&b;</l>".utf8)
        // When
        let error = #expect(throws: ResponseSerializationError.self) {
            try XMLDocumentResponseSerializer().serialize(request: nil, response: response(), data: billion, error: nil)
        }
        // Then
        #expect((error?.underlyingError as? XMLError)?.code == .entityDeclarationRefused)
        // And the options reach the parser.
        var options = XMLParsingOptions()
        options.allowsInternalEntities = true
        let document = try XMLDocumentResponseSerializer.xmlDocument(options: options)
            .serialize(request: nil, response: response(), data: billion, error: nil)
        #expect(document.root?.text == String(repeating: "a", count: 16))
    }

    @Test func theParserSerializerReturnsTheHandler() throws {
        // Given
        let serializer: XMLParserResponseSerializer<ItemCollector, ItemCollector> = .xmlParser { ItemCollector() }
        // When
        let collector = try serializer.serialize(request: nil, response: response(), data: Self.body, error: nil)
        // Then
        #expect(collector.items == ["one", "two"])
    }

    @Test func theParserSerializerCanTransformTheHandler() throws {
        // Given
        let serializer = XMLParserResponseSerializer(
            makeHandler: { ItemCollector() },
            result: { $0.items.joined(separator: ",") }
        )
        // When
        let joined = try serializer.serialize(
            request: nil,
            response: response(contentType: "text/xml"),
            data: Self.body,
            error: nil
        )
        // Then
        #expect(joined == "one,two")
    }

    @Test func theParserSerializerGivesAFreshHandlerPerResponseAndOneThatSawNothingForEmptyBodies() throws {
        // Given
        let serializer = XMLParserResponseSerializer(makeHandler: { ItemCollector() }, result: \.items)
        // When
        let first = try serializer.serialize(request: nil, response: response(), data: Self.body, error: nil)
        let second = try serializer.serialize(request: nil, response: response(), data: Self.body, error: nil)
        let empty = try serializer.serialize(
            request: nil,
            response: response(status: 204, contentType: nil),
            data: nil,
            error: nil
        )
        // Then
        #expect(first == ["one", "two"] && second == ["one", "two"])
        #expect(empty.isEmpty)
    }

    /// AFNetworking's `testThatXML…ResponseSerializerDoesNotAcceptsNonStandardXMLMimeType`, for
    /// both serializers: `nonstandard/xml` (an XML-looking subtype under an unknown type) is
    /// refused with the body kept.
    @Test func nonstandardXMLIsRefusedByBothSerializers() {
        let response = response(contentType: "nonstandard/xml")
        let document = #expect(throws: ResponseSerializationError.self) {
            try XMLDocumentResponseSerializer().serialize(request: nil, response: response, data: Self.body, error: nil)
        }
        let parser = #expect(throws: ResponseSerializationError.self) {
            try XMLParserResponseSerializer(makeHandler: { ItemCollector() }, result: \.items)
                .serialize(request: nil, response: response, data: Self.body, error: nil)
        }
        for error in [document, parser] {
            #expect(error?.code == .unacceptableContentType)
            #expect(error?.data == Self.body)
            #expect(error?.response?.allHeaderFields["Content-Type"] as? String == "nonstandard/xml")
        }
    }

    @Test func theParserSerializerValidatesAndReportsLikeTheDocumentSerializer() {
        // Given
        let serializer = XMLParserResponseSerializer(makeHandler: { ItemCollector() }, result: \.items)
        // When
        let badType = #expect(throws: ResponseSerializationError.self) {
            try serializer.serialize(
                request: nil,
                response: response(contentType: "application/json"),
                data: Self.body,
                error: nil
            )
        }
        let badBody = #expect(throws: ResponseSerializationError.self) {
            try serializer.serialize(request: nil, response: response(), data: Data("<r>".utf8), error: nil)
        }
        // Then
        #expect(badType?.code == .unacceptableContentType)
        #expect(badBody?.code == .decodingFailed)
        #expect((badBody?.underlyingError as? XMLError)?.line == 1)
    }
}

@Suite("XML in the response serializer registry")
struct XMLRegistryTests {
    func response(_ contentType: String) -> HTTPURLResponse {
        HTTPURLResponse(
            url: URL(string: "http://127.0.0.1/")!,
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            headerFields: ["Content-Type": contentType]
        )!
    }

    @Test(arguments: ["application/xml", "text/xml; charset=utf-8", "application/atom+xml", "image/svg+xml"])
    func xmlTypesBecomeDocuments(contentType: String) throws {
        // Given
        let registry = ResponseSerializerRegistry.standardWithXML
        // When
        let value = try registry.serialize(
            request: nil,
            response: response(contentType),
            data: Data("<r><a/></r>".utf8),
            error: nil
        )
        // Then
        let document = try #require(value as? XMLDocument)
        #expect(document.root?.elements.map(\.name) == ["a"])
    }

    @Test func otherTypesKeepTheirSerializers() throws {
        // Given
        let registry = ResponseSerializerRegistry.standardWithXML
        // When
        let json = try registry.serialize(
            request: nil,
            response: response("application/json"),
            data: Data(#"{"a":1}"#.utf8),
            error: nil
        )
        let text = try registry.serialize(
            request: nil,
            response: response("text/plain"),
            data: Data("<r/>".utf8),
            error: nil
        )
        // Then
        #expect((json as? [String: any Sendable])?["a"] as? Int == 1)
        #expect(text as? String == "<r/>")
    }

    @Test func withoutXMLTextXMLIsJustText() throws {
        // Given: the standard registry, which knows nothing of XML
        let registry = ResponseSerializerRegistry.standard
        // When
        let value = try registry.serialize(
            request: nil,
            response: response("text/xml"),
            data: Data("<r/>".utf8),
            error: nil
        )
        // Then
        #expect(value as? String == "<r/>")
    }

    @Test func malformedXMLThroughTheRegistryIsADecodingError() throws {
        // Given
        var registry = ResponseSerializerRegistry.standard
        registry.registerXML()
        // When
        let error = #expect(throws: ResponseSerializationError.self) {
            try registry.serialize(
                request: nil,
                response: self.response("application/xml"),
                data: Data("<r>".utf8),
                error: nil
            )
        }
        // Then
        #expect(error?.code == .decodingFailed)
        #expect(error?.underlyingError is XMLError)
    }
}
