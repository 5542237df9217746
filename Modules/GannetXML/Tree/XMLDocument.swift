/// A parsed XML document: its root element and everything under it.
///
/// Built by the same hardened libxml2 parser as ``XMLStreamParser``, so the same
/// ``XMLParsingOptions`` apply. The tree keeps the whole document in a compact form (a few flat
/// arrays, text as UTF-8) and makes strings only when they are read; for input too large to
/// hold, handle events with ``XMLStreamParser`` instead.
///
/// ```swift
/// let document = try XMLDocument.parse(data: body)
/// document.root?.name                                   // "slideshow"
/// document.element(at: "slideshow/slide/title")?.text   // "Wake up to WonderWidgets!"
/// ```
public struct XMLDocument: Sendable {
    let storage: XMLTreeStorage?

    init(storage: XMLTreeStorage?) {
        self.storage = storage
    }

    /// A document without a root, standing for an empty response (see
    /// ``XMLDocumentResponseSerializer``).
    public static var empty: XMLDocument { XMLDocument(storage: nil) }

    /// The root element. Parsing always produces one; it is `nil` only for ``empty``.
    public var root: XMLElement? {
        guard let storage else { return nil }
        for index in storage.childIndices(of: 0) where storage.nodes[index].kind == .element {
            return XMLElement(storage: storage, index: index)
        }
        return nil
    }

    /// Comments and processing instructions before and after the root element, in order.
    public var outsideRoot: [XMLNode] {
        guard let storage else { return [] }
        return storage.childIndices(of: 0).compactMap { index in
            storage.nodes[index].kind == .element ? nil : storage.node(at: index)
        }
    }

    /// The element at `path`, whose first step names the root: `"feed/entry/title"`. See
    /// ``XMLElement/element(at:)``.
    public func element(at path: String) -> XMLElement? {
        guard let storage else { return nil }
        let steps = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !steps.isEmpty else { return nil }
        return storage.element(below: 0, following: steps[...]).map { XMLElement(storage: storage, index: $0) }
    }

    /// Parses a whole document held in memory. Non-contiguous data is parsed region by region.
    ///
    /// - Throws: ``XMLError`` when the document is malformed, refused or over a limit.
    public static func parse(
        data: some DataProtocol,
        options: XMLParsingOptions = XMLParsingOptions()
    ) throws -> XMLDocument {
        let builder = XMLTreeBuilder(expectedBytes: data.count)
        let parser = SAXParserContext(sink: builder, options: options)
        for region in data.regions {
            try region.withUnsafeBytes { try parser.feed($0) }
        }
        try parser.finish()
        return try builder.document()
    }

    /// Parses a whole document read from `stream` (see ``XMLStreamParser/parse(stream:)``).
    public static func parse(
        stream: InputStream,
        options: XMLParsingOptions = XMLParsingOptions()
    ) throws -> XMLDocument {
        let builder = XMLTreeBuilder()
        let parser = SAXParserContext(sink: builder, options: options)
        try stream.forEachChunk { try parser.feed($0) }
        try parser.finish()
        return try builder.document()
    }
}
