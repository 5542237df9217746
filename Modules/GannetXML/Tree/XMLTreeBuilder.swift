/// Builds an ``XMLTreeStorage`` from parser events by appending fixed-size records to flat
/// arrays.
final class XMLTreeBuilder: SAXEventSink {
    /// Behind a pointer for the same reason as ``SAXParserContext/state``: class stored
    /// properties pay a run-time exclusivity check on every mutation, and this object has one
    /// owner on one thread.
    private let parts: UnsafeMutablePointer<XMLTreeStorage.Parts>
    /// Indices of the open elements' nodes.
    private let openElements: UnsafeMutablePointer<[Int]>
    private let names = NameInterner()

    /// - Parameter expectedBytes: The document's size when known. The arrays are reserved for
    ///   a typical density up front (for the first 32 MiB; beyond that they grow as usual), so
    ///   that they do not copy themselves over and over while growing; reserved pages that are
    ///   never written cost no memory.
    init(expectedBytes: Int? = nil) {
        parts = .allocate(capacity: 1)
        parts.initialize(to: XMLTreeStorage.Parts())
        openElements = .allocate(capacity: 1)
        openElements.initialize(to: [0])
        if let expectedBytes {
            let bytes = min(expectedBytes, 32 << 20)
            parts.pointee.nodes.reserveCapacity(bytes / 12)
            parts.pointee.elements.reserveCapacity(bytes / 32)
            parts.pointee.attributes.reserveCapacity(bytes / 64)
            parts.pointee.bytes.reserveCapacity(bytes / 2)
        }
    }

    deinit {
        parts.deinitialize(count: 1)
        parts.deallocate()
        openElements.deinitialize(count: 1)
        openElements.deallocate()
    }

    /// The finished document; call once, after a successful parse.
    func document() throws -> XMLDocument {
        guard parts.pointee.elements.count > 0 else {
            throw XMLError(.emptyDocument, "The document has no root element")
        }
        parts.pointee.nodes[0].end = Int32(parts.pointee.nodes.count)
        parts.pointee.names = names.names
        let storage = XMLTreeStorage(parts.move())
        parts.initialize(to: XMLTreeStorage.Parts())
        return XMLDocument(storage: storage)
    }

    override func didStartDocument() {}
    override func didEndDocument() {}

    override func didStartElement(_ tag: borrowing SAXStartTag) throws {
        let index = try nextNodeIndex()
        openElements.pointee.append(index)
        parts.pointee.nodes.append(
            .init(
                end: Int32(index + 1),
                payload: Int32(parts.pointee.elements.count),
                length: 0,
                kind: .element
            )
        )
        let dictionary = tag.dictionary
        let firstAttribute = Int32(parts.pointee.attributes.count)
        for attribute in tag.attributes {
            let offset = try appendBytes(attribute.value)
            parts.pointee.attributes.append(
                .init(
                    name: names.id(attribute.localName, dictionary: dictionary),
                    prefix: names.id(attribute.prefix, dictionary: dictionary),
                    namespaceURI: names.id(attribute.namespaceURI, dictionary: dictionary),
                    valueOffset: offset,
                    valueLength: Int32(attribute.value.count)
                )
            )
        }
        let firstNamespace = Int32(parts.pointee.namespaces.count)
        for declaration in 0..<tag.namespaceCount {
            parts.pointee.namespaces.append(
                .init(
                    prefix: names.id(tag.namespacePrefix(at: declaration), dictionary: dictionary),
                    uri: names.id(tag.namespaceURI(at: declaration), dictionary: dictionary)
                )
            )
        }
        parts.pointee.elements.append(
            .init(
                name: names.id(tag.localName, dictionary: dictionary),
                prefix: names.id(tag.prefix, dictionary: dictionary),
                namespaceURI: names.id(tag.namespaceURI, dictionary: dictionary),
                firstAttribute: firstAttribute,
                attributeCount: Int32(tag.attributes.count),
                firstNamespace: firstNamespace,
                namespaceCount: Int32(tag.namespaceCount)
            )
        )
    }

    override func didEndElement(_ tag: borrowing SAXEndTag) {
        guard let index = openElements.pointee.popLast() else { return }
        parts.pointee.nodes[index].end = Int32(parts.pointee.nodes.count)
    }

    override func didFindText(_ bytes: UnsafeBufferPointer<UInt8>, isCDATA: Bool) throws {
        try appendCharacterData(bytes, kind: isCDATA ? .cdata : .text)
    }

    override func didFindComment(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        try appendCharacterData(bytes, kind: .comment)
    }

    override func didFindProcessingInstruction(target: UnsafePointer<UInt8>, data: UnsafePointer<UInt8>?) throws {
        let index = try nextNodeIndex()
        parts.pointee.nodes.append(
            .init(
                end: Int32(index + 1),
                payload: Int32(parts.pointee.instructions.count),
                length: 0,
                kind: .processingInstruction
            )
        )
        parts.pointee.instructions.append(
            .init(
                target: String(cString: target),
                data: data.map { String(cString: $0) } ?? ""
            )
        )
    }

    override func didFail(_ error: XMLError) {}

    private func appendCharacterData(_ bytes: UnsafeBufferPointer<UInt8>, kind: XMLTreeStorage.Node.Kind) throws {
        let index = try nextNodeIndex()
        let offset = try appendBytes(bytes)
        parts.pointee.nodes.append(
            .init(end: Int32(index + 1), payload: offset, length: Int32(bytes.count), kind: kind)
        )
    }

    private func nextNodeIndex() throws -> Int {
        let index = parts.pointee.nodes.count
        guard index < Int(Int32.max) else { throw Self.tooLarge }
        return index
    }

    /// Appends to the byte store and returns where the bytes start.
    private func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) throws -> Int32 {
        let offset = parts.pointee.bytes.count
        guard offset + bytes.count < Int(Int32.max) else { throw Self.tooLarge }
        parts.pointee.bytes.append(contentsOf: bytes)
        return Int32(offset)
    }

    private static var tooLarge: XMLError {
        XMLError(.documentTooLarge, "The document holds more than 2 GiB of text, more than a document tree can hold")
    }
}
