/// Turns a context's raw events into Swift values for an ``XMLEventHandler``.
final class EventHandlerSink<Handler: XMLEventHandler>: SAXEventSink {
    /// The handler lives behind a pointer: a stored property of a class is checked for
    /// exclusive access at run time on every mutating call, once per event, and a parser is
    /// single-owner anyway (not `Sendable`, never re-entered).
    let handler: UnsafeMutablePointer<Handler>
    /// Reused buffers, behind a pointer for the same reason.
    private let scratch: UnsafeMutablePointer<[XMLAttribute]>
    /// Strings for the names libxml2 interns, so each distinct name is decoded once.
    private let names = NameCache()

    init(handler: Handler) {
        self.handler = .allocate(capacity: 1)
        self.handler.initialize(to: handler)
        scratch = .allocate(capacity: 1)
        scratch.initialize(to: [])
    }

    deinit {
        handler.deinitialize(count: 1)
        handler.deallocate()
        scratch.deinitialize(count: 1)
        scratch.deallocate()
    }

    override func didStartDocument() throws { try handler.pointee.startDocument() }
    override func didEndDocument() throws { try handler.pointee.endDocument() }

    override func didStartElement(_ tag: borrowing SAXStartTag) throws {
        let dictionary = tag.dictionary
        var attributes: [XMLAttribute] = []
        if !tag.attributes.isEmpty {
            // A scratch array reused across tags: no allocation per tag unless the handler
            // keeps the array, in which case the next tag's write copies as arrays always do.
            scratch.pointee.removeAll(keepingCapacity: true)
            for attribute in tag.attributes {
                scratch.pointee.append(
                    XMLAttribute(
                        name: names.name(attribute.localName, dictionary: dictionary),
                        prefix: names.optionalName(attribute.prefix, dictionary: dictionary),
                        namespaceURI: names.optionalName(attribute.namespaceURI, dictionary: dictionary),
                        value: String(decoding: attribute.value, as: UTF8.self)
                    )
                )
            }
            attributes = scratch.pointee
        }
        var namespaces: [XMLNamespaceDeclaration] = []
        if tag.namespaceCount > 0 {
            namespaces.reserveCapacity(tag.namespaceCount)
            for index in 0..<tag.namespaceCount {
                namespaces.append(
                    XMLNamespaceDeclaration(
                        prefix: names.optionalName(tag.namespacePrefix(at: index), dictionary: dictionary),
                        uri: names.optionalName(tag.namespaceURI(at: index), dictionary: dictionary) ?? ""
                    )
                )
            }
        }
        try handler.pointee.startElement(
            name: names.name(tag.localName, dictionary: dictionary),
            prefix: names.optionalName(tag.prefix, dictionary: dictionary),
            namespaceURI: names.optionalName(tag.namespaceURI, dictionary: dictionary),
            attributes: attributes,
            namespaces: namespaces
        )
    }

    override func didEndElement(_ tag: borrowing SAXEndTag) throws {
        let dictionary = tag.dictionary
        try handler.pointee.endElement(
            name: names.name(tag.localName, dictionary: dictionary),
            prefix: names.optionalName(tag.prefix, dictionary: dictionary),
            namespaceURI: names.optionalName(tag.namespaceURI, dictionary: dictionary)
        )
    }

    override func didFindText(_ bytes: UnsafeBufferPointer<UInt8>, isCDATA: Bool) throws {
        let text = String(decoding: bytes, as: UTF8.self)
        if isCDATA {
            try handler.pointee.cdata(text)
        } else {
            try handler.pointee.characters(text)
        }
    }

    override func didFindComment(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        try handler.pointee.comment(String(decoding: bytes, as: UTF8.self))
    }

    override func didFindProcessingInstruction(target: UnsafePointer<UInt8>, data: UnsafePointer<UInt8>?) throws {
        try handler.pointee.processingInstruction(
            target: String(cString: target),
            data: data.map { String(cString: $0) } ?? ""
        )
    }

    override func didFail(_ error: XMLError) { handler.pointee.parseErrorOccurred(error) }
}
