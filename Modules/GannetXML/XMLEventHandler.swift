/// Receives what an ``XMLStreamParser`` finds, in document order: Gannet's counterpart of
/// Foundation's `XMLParserDelegate`.
///
/// Every method has an empty default, so a handler implements only what it needs. Handlers
/// may be structs: the parser keeps the value and hands it back through
/// ``XMLStreamParser/handler``. A method that throws stops the parse; the parser rethrows
/// that error from the `feed`, `finish` or `parse` call that was running.
///
/// Text arrives coalesced: one ``characters(_:)`` call per run of text between two pieces
/// of markup, however libxml2 or the network split it. Names are interned per parser, so the
/// same element name costs one string allocation per document, not one per element.
///
/// ```swift
/// struct TitleCollector: XMLEventHandler {
///     var titles: [String] = []
///     private var inTitle = false
///
///     mutating func startElement(name: String, prefix: String?, namespaceURI: String?,
///                                attributes: [XMLAttribute], namespaces: [XMLNamespaceDeclaration]) {
///         inTitle = name == "title"
///     }
///     mutating func characters(_ text: String) {
///         if inTitle { titles.append(text) }
///     }
///     mutating func endElement(name: String, prefix: String?, namespaceURI: String?) {
///         inTitle = false
///     }
/// }
///
/// let collector = try XMLStreamParser.parse(data, handler: TitleCollector())
/// print(collector.titles)
/// ```
public protocol XMLEventHandler {
    /// The parser read the XML declaration, if any, and is about to read the root element.
    mutating func startDocument() throws

    /// The document ended without error, after the root element closed.
    mutating func endDocument() throws

    /// A start tag, or an empty-element tag (which is followed at once by ``endElement(name:prefix:namespaceURI:)``).
    ///
    /// - Parameters:
    ///   - name: The local name, without prefix.
    ///   - prefix: The prefix as written, `nil` when unprefixed.
    ///   - namespaceURI: The namespace the element is in, `nil` for none.
    ///   - attributes: The attributes in document order, namespace declarations excluded.
    ///   - namespaces: The `xmlns` declarations on this tag.
    mutating func startElement(
        name: String,
        prefix: String?,
        namespaceURI: String?,
        attributes: [XMLAttribute],
        namespaces: [XMLNamespaceDeclaration]
    ) throws

    /// An end tag (or the end of an empty-element tag).
    mutating func endElement(name: String, prefix: String?, namespaceURI: String?) throws

    /// Character data, with references replaced; whitespace between elements included unless
    /// ``XMLParsingOptions/dropsWhitespaceOnlyText`` is set.
    mutating func characters(_ text: String) throws

    /// The content of a CDATA section, unescaped. Adjacent CDATA sections may arrive as one call.
    mutating func cdata(_ text: String) throws

    /// The text of a comment, without `<!--` and `-->`.
    mutating func comment(_ text: String) throws

    /// A processing instruction such as `<?xml-stylesheet href="a.xsl"?>`; `data` is empty
    /// when there is none. The XML declaration itself is not one.
    mutating func processingInstruction(target: String, data: String) throws

    /// The parse failed; called once, just before the error is thrown. No other method is
    /// called afterwards.
    mutating func parseErrorOccurred(_ error: XMLError)
}

extension XMLEventHandler {
    /// Does nothing.
    public mutating func startDocument() throws {}
    /// Does nothing.
    public mutating func endDocument() throws {}
    /// Does nothing.
    public mutating func startElement(
        name: String,
        prefix: String?,
        namespaceURI: String?,
        attributes: [XMLAttribute],
        namespaces: [XMLNamespaceDeclaration]
    ) throws {}
    /// Does nothing.
    public mutating func endElement(name: String, prefix: String?, namespaceURI: String?) throws {}
    /// Does nothing.
    public mutating func characters(_ text: String) throws {}
    /// Does nothing.
    public mutating func cdata(_ text: String) throws {}
    /// Does nothing.
    public mutating func comment(_ text: String) throws {}
    /// Does nothing.
    public mutating func processingInstruction(target: String, data: String) throws {}
    /// Does nothing.
    public mutating func parseErrorOccurred(_ error: XMLError) {}
}
