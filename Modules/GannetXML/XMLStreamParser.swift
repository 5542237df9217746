/// A streaming XML parser on libxml2's SAX2 push interface, hardened by default.
///
/// Feed it the document in pieces as they arrive (any split works, down to single bytes) and
/// it calls its ``XMLEventHandler`` as it goes, so memory stays bounded whatever the document's
/// size: a gigabyte feed needs no more than a kilobyte one, apart from what the handler keeps.
///
/// ```swift
/// struct ItemCounter: XMLEventHandler {
///     var items = 0
///     mutating func startElement(name: String, prefix: String?, namespaceURI: String?,
///                                attributes: [XMLAttribute], namespaces: [XMLNamespaceDeclaration]) {
///         if name == "item" { items += 1 }
///     }
/// }
///
/// let parser = XMLStreamParser(handler: ItemCounter())
/// for try await chunk in body { try parser.feed(chunk) }
/// try parser.finish()
/// print(parser.handler.items)
/// ```
///
/// Parsing fails with an ``XMLError`` carrying the line and column for malformed input, for
/// entity declarations (refused unless ``XMLParsingOptions/allowsInternalEntities``), and when a
/// limit of ``XMLParsingOptions/Limits`` is reached. Nothing is ever loaded from the network or
/// the file system, and libxml2 prints nothing to stderr.
///
/// A parser is used from one thread at a time; create one per document. Many parsers may run
/// at once on different threads.
public final class XMLStreamParser<Handler: XMLEventHandler> {
    /// The handler, holding whatever it gathered so far.
    public var handler: Handler { sink.handler.pointee }
    /// The options this parser was created with.
    public let options: XMLParsingOptions

    private let sink: EventHandlerSink<Handler>
    private let parserContext: SAXParserContext

    /// Creates a parser that delivers events to `handler`.
    public init(handler: Handler, options: XMLParsingOptions = XMLParsingOptions()) {
        sink = EventHandlerSink(handler: handler)
        parserContext = SAXParserContext(sink: sink, options: options)
        self.options = options
    }

    /// Parses the next piece of the document. Non-contiguous data (such as `DispatchData`) is
    /// parsed region by region, without copying it together.
    ///
    /// - Throws: ``XMLError`` when the document is malformed or breaks a limit, or the error a
    ///   handler method threw. After a failure every call throws the same error again.
    public func feed(_ chunk: some DataProtocol) throws {
        let context = parserContext
        for region in chunk.regions {
            try region.withUnsafeBytes { try context.feed($0) }
        }
    }

    /// Parses the next piece of the document from raw memory, which need only live for the call.
    public func feed(_ bytes: UnsafeRawBufferPointer) throws {
        try parserContext.feed(bytes)
    }

    /// Ends the document: checks that it was complete and calls
    /// ``XMLEventHandler/endDocument()``. The parser takes no more input afterwards.
    public func finish() throws {
        try parserContext.finish()
    }

    /// Parses a whole document held in memory: ``feed(_:)-(DataProtocol)`` then ``finish()``.
    public func parse(_ data: some DataProtocol) throws {
        try feed(data)
        try finish()
    }

    /// Parses `data` with a new parser and returns the handler afterwards.
    ///
    /// ```swift
    /// let recorder = try XMLStreamParser.parse(data, handler: XMLEventRecorder())
    /// ```
    public static func parse(
        _ data: some DataProtocol,
        handler: Handler,
        options: XMLParsingOptions = XMLParsingOptions()
    ) throws -> Handler {
        let parser = XMLStreamParser(handler: handler, options: options)
        try parser.parse(data)
        return parser.handler
    }
}

/// A parser is driven from one thread at a time and owns a libxml2 context; sharing one
/// between tasks is a mistake the compiler should catch.
@available(*, unavailable)
extension XMLStreamParser: Sendable {}
