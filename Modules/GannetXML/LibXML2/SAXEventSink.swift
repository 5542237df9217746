/// Where a ``SAXParserContext`` delivers the events it decoded into Swift values. Implemented
/// by ``XMLStreamParser``, which forwards them to its ``XMLEventHandler``.
protocol SAXEventSink: AnyObject {
    func didStartDocument() throws
    func didEndDocument() throws
    func didStartElement(
        name: String, prefix: String?, namespaceURI: String?,
        attributes: [XMLAttribute], namespaces: [XMLNamespaceDeclaration]) throws
    func didEndElement(name: String, prefix: String?, namespaceURI: String?) throws
    func didFindCharacters(_ text: String) throws
    func didFindCDATA(_ text: String) throws
    func didFindComment(_ text: String) throws
    func didFindProcessingInstruction(target: String, data: String) throws
    func didFail(_ error: XMLError)
}
