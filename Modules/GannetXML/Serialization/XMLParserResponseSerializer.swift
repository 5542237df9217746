/// Validates a response and streams its body through a fresh ``XMLEventHandler``, returning
/// what the handler gathered: AFNetworking's `AFXMLParserResponseSerializer`, which handed back
/// an unparsed `NSXMLParser`, made `Sendable` by parsing on the processing queue and returning
/// a value instead.
///
/// Each response gets its own handler from `makeHandler`, so one serializer serves many
/// concurrent requests; `result` turns the finished handler into the output (by default the
/// handler itself, when it is `Sendable`). No document tree is built, so this is the cheaper
/// choice when only part of a document matters.
///
/// ```swift
/// struct TitleCollector: XMLEventHandler, Sendable { … }
///
/// // Output is the handler:
/// let collector = try await manager.value(for: request, serializer: .xmlParser(TitleCollector.init))
/// // Output is whatever `result` makes of it:
/// let titles = try await manager.value(
///     for: request, serializer: XMLParserResponseSerializer(makeHandler: { TitleCollector() }, result: \.titles))
/// ```
///
/// Validation, empty bodies and errors follow ``XMLDocumentResponseSerializer``; for an
/// allowed empty body, `result` gets a handler that saw no events. An error the handler or
/// `result` throws is rethrown as it is.
public struct XMLParserResponseSerializer<Handler: XMLEventHandler, Output: Sendable>: ResponseBodySerializing {
    /// Makes the handler for one response.
    public var makeHandler: @Sendable () -> Handler
    /// Turns the handler, after the parse, into the serializer's output.
    public var result: @Sendable (Handler) throws -> Output
    /// Status codes that count as success; 200–299 by default.
    public var acceptableStatusCodes: IndexSet = Self.defaultAcceptableStatusCodes
    /// Media types the body may have; `MediaType.xmlTypes` by default, `nil` accepts any.
    public var acceptableContentTypes: Set<MediaType>? = Set(MediaType.xmlTypes)
    /// Runs on the body before parsing; passes it through by default.
    public var dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor()
    /// Status codes whose empty body is accepted; 204, 205 and 304 by default.
    public var emptyResponseCodes: Set<Int> = Self.defaultEmptyResponseCodes
    /// Request methods whose empty body is accepted; `HEAD` by default.
    public var emptyRequestMethods: Set<String> = Self.defaultEmptyRequestMethods
    /// How the body is parsed: limits, entity policy.
    public var options: XMLParsingOptions

    /// Creates a serializer that parses each body with a handler from `makeHandler` and returns
    /// `result(handler)`.
    public init(
        options: XMLParsingOptions = XMLParsingOptions(),
        makeHandler: @escaping @Sendable () -> Handler,
        result: @escaping @Sendable (Handler) throws -> Output
    ) {
        self.makeHandler = makeHandler
        self.result = result
        self.options = options
    }

    /// Rethrows a transport error, validates the response, parses the body and returns the
    /// handler's result.
    public func serialize(_ input: ResponseInput) throws -> Output {
        guard let body = try validatedBody(input) else {
            return try result(makeHandler())
        }
        let handler: Handler
        do {
            handler = try XMLStreamParser.parse(body, handler: makeHandler(), options: options)
        } catch let error as XMLError {
            throw ResponseSerializationError.decodingFailed(
                "XML parsing failed: \(error)",
                response: input.response,
                data: input.data,
                underlyingError: error
            )
        }
        return try result(handler)
    }
}

extension XMLParserResponseSerializer where Output == Handler, Handler: Sendable {
    /// Creates a serializer whose output is the handler itself, after the parse.
    public init(options: XMLParsingOptions = XMLParsingOptions(), makeHandler: @escaping @Sendable () -> Handler) {
        self.init(options: options, makeHandler: makeHandler, result: { $0 })
    }
}

extension ResponseSerializing {
    /// Streams the body through a fresh handler from `makeHandler` and returns the handler.
    ///
    /// Pass an initializer (`.xmlParser(TitleCollector.init)`); a closure written where the
    /// serializer's type is still being inferred needs to say it is `@Sendable`
    /// (`.xmlParser { @Sendable in TitleCollector(limit: 10) }`).
    public static func xmlParser<Handler: XMLEventHandler & Sendable>(
        options: XMLParsingOptions = XMLParsingOptions(),
        _ makeHandler: @escaping @Sendable () -> Handler
    ) -> Self where Self == XMLParserResponseSerializer<Handler, Handler> {
        XMLParserResponseSerializer(options: options, makeHandler: makeHandler)
    }
}
