internal import CLibXML2

/// Where a ``SAXParserContext`` delivers events: as the UTF-8 pointers libxml2 produced,
/// valid only during the call, so each sink makes exactly the Swift values it needs.
/// ``EventHandlerSink`` makes strings for an ``XMLEventHandler``; ``XMLTreeBuilder`` interns
/// names and copies bytes, making no string at all.
///
/// A class rather than a protocol so the context can call it through `Unmanaged` without
/// reference counting on every event; subclasses override what they handle.
class SAXEventSink {
    func didStartDocument() throws {}
    func didEndDocument() throws {}
    func didStartElement(_ tag: borrowing SAXStartTag) throws {}
    func didEndElement(_ tag: borrowing SAXEndTag) throws {}
    /// One coalesced run of character data or CDATA.
    func didFindText(_ bytes: UnsafeBufferPointer<UInt8>, isCDATA: Bool) throws {}
    func didFindComment(_ bytes: UnsafeBufferPointer<UInt8>) throws {}
    func didFindProcessingInstruction(target: UnsafePointer<UInt8>, data: UnsafePointer<UInt8>?) throws {}
    func didFail(_ error: XMLError) {}
}

/// A start tag with its names as NUL-terminated UTF-8 (interned in ``dictionary`` when libxml2
/// owns them) and its attribute values decoded.
struct SAXStartTag: ~Copyable {
    var localName: UnsafePointer<UInt8>
    var prefix: UnsafePointer<UInt8>?
    var namespaceURI: UnsafePointer<UInt8>?
    var attributes: UnsafeBufferPointer<SAXAttribute>
    /// Pairs of prefix (NULL for the default namespace) and URI.
    var namespaceCount: Int
    var namespaces: UnsafeMutablePointer<UnsafePointer<UInt8>?>?
    var dictionary: xmlDictPtr?

    /// The prefix of namespace declaration `index`.
    func namespacePrefix(at index: Int) -> UnsafePointer<UInt8>? { namespaces?[index * 2] }
    /// The URI of namespace declaration `index`.
    func namespaceURI(at index: Int) -> UnsafePointer<UInt8>? { namespaces?[index * 2 + 1] }
}

/// One attribute of a ``SAXStartTag``.
struct SAXAttribute {
    var localName: UnsafePointer<UInt8>
    var prefix: UnsafePointer<UInt8>?
    var namespaceURI: UnsafePointer<UInt8>?
    /// The value with every reference replaced; not NUL-terminated.
    var value: UnsafeBufferPointer<UInt8>
    /// Where the value sits in the context's decoded-values buffer while it is being filled
    /// (and may still move); ``value`` is set from it just before delivery.
    var decodedRange: Range<Int>?
}

/// An end tag.
struct SAXEndTag: ~Copyable {
    var localName: UnsafePointer<UInt8>
    var prefix: UnsafePointer<UInt8>?
    var namespaceURI: UnsafePointer<UInt8>?
    var dictionary: xmlDictPtr?
}
