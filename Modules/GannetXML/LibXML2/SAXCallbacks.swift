internal import CLibXML2

// libxml2's SAX2 callbacks. Each recovers its ``SAXParserContext`` from the user data pointer
// (always set: with a NULL user data libxml2 would look entities up in its own tables and
// expand them) and forwards. They are top-level functions, not closures, so no actor
// isolation can attach to them.

extension SAXParserContext {
    /// The callback table. Every entry left NULL is deliberate: `reference` (libxml2 would
    /// report undeclared entities through it), `setDocumentLocator`, `isStandalone`,
    /// `hasInternalSubset` / `hasExternalSubset` (libxml2's versions read a DOM that does not
    /// exist here), the variadic `warning` / `error` / `fatalError` (replaced by `serror`), and
    /// the SAX1 `startElement` / `endElement`.
    static func makeSAXHandler() -> xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = UInt32(XML_SAX2_MAGIC)
        handler.startDocument = gannetStartDocument
        handler.endDocument = gannetEndDocument
        handler.startElementNs = gannetStartElementNs
        handler.endElementNs = gannetEndElementNs
        handler.characters = gannetCharacters
        handler.ignorableWhitespace = gannetCharacters
        handler.cdataBlock = gannetCDATABlock
        handler.comment = gannetComment
        handler.processingInstruction = gannetProcessingInstruction
        handler.internalSubset = gannetInternalSubset
        handler.externalSubset = gannetExternalSubset
        handler.entityDecl = gannetEntityDeclaration
        handler.unparsedEntityDecl = gannetUnparsedEntityDeclaration
        handler.getEntity = gannetGetEntity
        handler.getParameterEntity = gannetGetParameterEntity
        handler.resolveEntity = gannetResolveEntity
        handler.serror = gannetStructuredError
        return handler
    }
}

@inline(__always)
private func withParser<T>(_ userData: UnsafeMutableRawPointer?, _ body: (SAXParserContext) -> T) -> T? {
    guard let userData else { return nil }
    return Unmanaged<SAXParserContext>.fromOpaque(userData)._withUnsafeGuaranteedRef(body)
}

private func gannetStartDocument(_ userData: UnsafeMutableRawPointer?) {
    withParser(userData) { $0.startDocument() }
}

private func gannetEndDocument(_ userData: UnsafeMutableRawPointer?) {
    withParser(userData) { $0.endDocument() }
}

private func gannetStartElementNs(
    _ userData: UnsafeMutableRawPointer?,
    _ localName: UnsafePointer<xmlChar>?,
    _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?,
    _ namespaceCount: Int32,
    _ namespaces: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?,
    _ attributeCount: Int32,
    _ defaultedCount: Int32,
    _ attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?
) {
    guard let localName else { return }
    withParser(userData) {
        $0.startElement(
            localName: localName,
            prefix: prefix,
            uri: uri,
            namespaceCount: Int(namespaceCount),
            namespaces: namespaces,
            attributeCount: Int(attributeCount),
            attributes: attributes
        )
    }
}

private func gannetEndElementNs(
    _ userData: UnsafeMutableRawPointer?,
    _ localName: UnsafePointer<xmlChar>?,
    _ prefix: UnsafePointer<xmlChar>?,
    _ uri: UnsafePointer<xmlChar>?
) {
    guard let localName else { return }
    withParser(userData) { $0.endElement(localName: localName, prefix: prefix, uri: uri) }
}

private func gannetCharacters(_ userData: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<xmlChar>?, _ length: Int32) {
    guard let bytes, length > 0 else { return }
    withParser(userData) { $0.appendText(bytes, count: Int(length), kind: .text) }
}

private func gannetCDATABlock(_ userData: UnsafeMutableRawPointer?, _ bytes: UnsafePointer<xmlChar>?, _ length: Int32) {
    guard let bytes else { return }
    withParser(userData) { $0.appendText(bytes, count: Int(length), kind: .cdata) }
}

private func gannetComment(_ userData: UnsafeMutableRawPointer?, _ value: UnsafePointer<xmlChar>?) {
    guard let value else { return }
    withParser(userData) { $0.comment(value) }
}

private func gannetProcessingInstruction(
    _ userData: UnsafeMutableRawPointer?,
    _ target: UnsafePointer<xmlChar>?,
    _ data: UnsafePointer<xmlChar>?
) {
    guard let target else { return }
    withParser(userData) { $0.processingInstruction(target: target, data: data) }
}

/// `<!DOCTYPE name …[ … ]>`: libxml2's default builds a DTD node; the declarations inside are
/// still parsed and reach the entity callbacks below.
private func gannetInternalSubset(
    _ userData: UnsafeMutableRawPointer?,
    _ name: UnsafePointer<xmlChar>?,
    _ externalID: UnsafePointer<xmlChar>?,
    _ systemID: UnsafePointer<xmlChar>?
) {}

/// `<!DOCTYPE name SYSTEM "uri">`: libxml2's default would fetch the DTD; Gannet never loads it.
private func gannetExternalSubset(
    _ userData: UnsafeMutableRawPointer?,
    _ name: UnsafePointer<xmlChar>?,
    _ externalID: UnsafePointer<xmlChar>?,
    _ systemID: UnsafePointer<xmlChar>?
) {}

private func gannetEntityDeclaration(
    _ userData: UnsafeMutableRawPointer?,
    _ name: UnsafePointer<xmlChar>?,
    _ type: Int32,
    _ publicID: UnsafePointer<xmlChar>?,
    _ systemID: UnsafePointer<xmlChar>?,
    _ content: UnsafeMutablePointer<xmlChar>?
) {
    guard let name else { return }
    withParser(userData) { $0.entityDeclaration(name: name, type: type, content: content.map { UnsafePointer($0) }) }
}

private func gannetUnparsedEntityDeclaration(
    _ userData: UnsafeMutableRawPointer?,
    _ name: UnsafePointer<xmlChar>?,
    _ publicID: UnsafePointer<xmlChar>?,
    _ systemID: UnsafePointer<xmlChar>?,
    _ notationName: UnsafePointer<xmlChar>?
) {
    guard let name else { return }
    withParser(userData) { $0.unparsedEntityDeclaration(name: name) }
}

private func gannetGetEntity(_ userData: UnsafeMutableRawPointer?, _ name: UnsafePointer<xmlChar>?) -> xmlEntityPtr? {
    guard let name else { return nil }
    return withParser(userData) { $0.entity(named: name) } ?? nil
}

/// Parameter entities are never declared (their declarations are refused), so none exists.
private func gannetGetParameterEntity(
    _ userData: UnsafeMutableRawPointer?,
    _ name: UnsafePointer<xmlChar>?
) -> xmlEntityPtr? {
    nil
}

/// Nothing external is ever resolved.
private func gannetResolveEntity(
    _ userData: UnsafeMutableRawPointer?,
    _ publicID: UnsafePointer<xmlChar>?,
    _ systemID: UnsafePointer<xmlChar>?
) -> xmlParserInputPtr? {
    nil
}

/// Both the context's `serror` and, during each parse call, the thread's structured handler.
func gannetStructuredError(_ userData: UnsafeMutableRawPointer?, _ error: UnsafeMutablePointer<xmlError>?) {
    guard let error else { return }
    withParser(userData) { $0.structuredError(error) }
}
