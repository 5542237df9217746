/// One thing an ``XMLStreamParser`` found, as a value: the enum form of ``XMLEventHandler``,
/// collected by ``XMLEventRecorder``.
public enum XMLEvent: Sendable, Hashable {
    /// See ``XMLEventHandler/startDocument()``.
    case startDocument
    /// See ``XMLEventHandler/endDocument()``.
    case endDocument
    /// See ``XMLEventHandler/startElement(name:prefix:namespaceURI:attributes:namespaces:)``.
    case startElement(
        name: String,
        prefix: String?,
        namespaceURI: String?,
        attributes: [XMLAttribute],
        namespaces: [XMLNamespaceDeclaration]
    )
    /// See ``XMLEventHandler/endElement(name:prefix:namespaceURI:)``.
    case endElement(name: String, prefix: String?, namespaceURI: String?)
    /// See ``XMLEventHandler/characters(_:)``.
    case characters(String)
    /// See ``XMLEventHandler/cdata(_:)``.
    case cdata(String)
    /// See ``XMLEventHandler/comment(_:)``.
    case comment(String)
    /// See ``XMLEventHandler/processingInstruction(target:data:)``.
    case processingInstruction(target: String, data: String)
}
