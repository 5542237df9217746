/// A handler that keeps every event as an ``XMLEvent``, in order. Handy for tests and for
/// small documents whose events are replayed later; for large ones, handle events as they come.
///
/// ```swift
/// let recorder = try XMLStreamParser.parse(data, handler: XMLEventRecorder())
/// for case .startElement(let name, _, _, _, _) in recorder.events { print(name) }
/// ```
public struct XMLEventRecorder: XMLEventHandler, Sendable {
    /// The events so far.
    public private(set) var events: [XMLEvent] = []
    /// The error the parse ended with, if it failed.
    public private(set) var error: XMLError?

    /// Creates an empty recorder.
    public init() {}

    /// Records ``XMLEvent/startDocument``.
    public mutating func startDocument() { events.append(.startDocument) }
    /// Records ``XMLEvent/endDocument``.
    public mutating func endDocument() { events.append(.endDocument) }
    /// Records ``XMLEvent/startElement(name:prefix:namespaceURI:attributes:namespaces:)``.
    public mutating func startElement(
        name: String,
        prefix: String?,
        namespaceURI: String?,
        attributes: [XMLAttribute],
        namespaces: [XMLNamespaceDeclaration]
    ) {
        events.append(
            .startElement(
                name: name,
                prefix: prefix,
                namespaceURI: namespaceURI,
                attributes: attributes,
                namespaces: namespaces
            )
        )
    }
    /// Records ``XMLEvent/endElement(name:prefix:namespaceURI:)``.
    public mutating func endElement(name: String, prefix: String?, namespaceURI: String?) {
        events.append(.endElement(name: name, prefix: prefix, namespaceURI: namespaceURI))
    }
    /// Records ``XMLEvent/characters(_:)``.
    public mutating func characters(_ text: String) { events.append(.characters(text)) }
    /// Records ``XMLEvent/cdata(_:)``.
    public mutating func cdata(_ text: String) { events.append(.cdata(text)) }
    /// Records ``XMLEvent/comment(_:)``.
    public mutating func comment(_ text: String) { events.append(.comment(text)) }
    /// Records ``XMLEvent/processingInstruction(target:data:)``.
    public mutating func processingInstruction(target: String, data: String) {
        events.append(.processingInstruction(target: target, data: data))
    }
    /// Keeps the error in ``error``.
    public mutating func parseErrorOccurred(_ error: XMLError) { self.error = error }
}
