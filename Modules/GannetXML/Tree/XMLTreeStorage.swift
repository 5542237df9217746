/// The nodes of one parsed document, flattened in document order into a few arrays of small
/// fixed-size records: no allocation per node while parsing, names interned once per
/// document, text and attribute values kept as UTF-8 until someone reads them.
///
/// Node 0 is the document; every node's subtree occupies the indices from the node up to its
/// `end`, so the first child of node `n` is `n + 1` and each next sibling starts where the
/// previous sibling's subtree ends. Offsets are 32-bit, which caps one tree at 2 GiB of text
/// (the builder fails with ``XMLError/Code/documentTooLarge`` beyond). Immutable once built.
final class XMLTreeStorage: Sendable {
    struct Node: Sendable {
        enum Kind: UInt8, Sendable { case document, element, text, cdata, comment, processingInstruction }
        /// One past the last node of this node's subtree.
        var end: Int32
        /// Elements: index into `elements`. Character data and comments: byte offset into
        /// `bytes`. Processing instructions: index into `instructions`.
        var payload: Int32
        /// Character data and comments: byte count.
        var length: Int32
        var kind: Kind
    }

    /// Name, prefix and namespace are indices into `names`; -1 means none.
    struct Element: Sendable {
        var name: Int32
        var prefix: Int32
        var namespaceURI: Int32
        var firstAttribute: Int32
        var attributeCount: Int32
        var firstNamespace: Int32
        var namespaceCount: Int32
    }

    struct Attribute: Sendable {
        var name: Int32
        var prefix: Int32
        var namespaceURI: Int32
        var valueOffset: Int32
        var valueLength: Int32
    }

    struct Namespace: Sendable {
        var prefix: Int32
        var uri: Int32
    }

    struct Instruction: Sendable {
        var target: String
        var data: String
    }

    struct Parts: Sendable {
        var nodes: [Node] = [Node(end: 1, payload: 0, length: 0, kind: .document)]
        var elements: [Element] = []
        var attributes: [Attribute] = []
        var namespaces: [Namespace] = []
        var bytes: [UInt8] = []
        var instructions: [Instruction] = []
        var names: [String] = []
    }

    let nodes: [Node]
    let elements: [Element]
    let attributes: [Attribute]
    let namespaces: [Namespace]
    let bytes: [UInt8]
    let instructions: [Instruction]
    let names: [String]

    init(_ parts: consuming Parts) {
        nodes = parts.nodes
        elements = parts.elements
        attributes = parts.attributes
        namespaces = parts.namespaces
        bytes = parts.bytes
        instructions = parts.instructions
        names = parts.names
    }

    /// The element record of node `index`, which must be an element.
    @inline(__always)
    func element(at index: Int) -> Element { elements[Int(nodes[index].payload)] }

    @inline(__always)
    func name(_ id: Int32) -> String? { id < 0 ? nil : names[Int(id)] }

    func string(offset: Int32, length: Int32) -> String {
        bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[Int(offset)..<Int(offset + length)]), as: UTF8.self)
        }
    }

    /// The text of character data or comment node `index`.
    func string(at index: Int) -> String {
        string(offset: nodes[index].payload, length: nodes[index].length)
    }

    func attribute(_ record: Attribute) -> XMLAttribute {
        XMLAttribute(
            name: names[Int(record.name)],
            prefix: name(record.prefix),
            namespaceURI: name(record.namespaceURI),
            value: string(offset: record.valueOffset, length: record.valueLength)
        )
    }

    /// The attribute records of element node `index`.
    func attributeRecords(of index: Int) -> ArraySlice<Attribute> {
        let element = element(at: index)
        return attributes[Int(element.firstAttribute)..<Int(element.firstAttribute + element.attributeCount)]
    }

    /// The indices of the children of node `index`, in order.
    func childIndices(of index: Int) -> some Sequence<Int> {
        let end = Int(nodes[index].end)
        return sequence(first: index + 1) { [nodes] in Int(nodes[$0].end) }.prefix { $0 < end }
    }

    /// Node `index` as a public value.
    func node(at index: Int) -> XMLNode {
        let node = nodes[index]
        switch node.kind {
        case .element, .document: return .element(XMLElement(storage: self, index: index))
        case .text: return .text(string(at: index))
        case .cdata: return .cdata(string(at: index))
        case .comment: return .comment(string(at: index))
        case .processingInstruction:
            let instruction = instructions[Int(node.payload)]
            return .processingInstruction(target: instruction.target, data: instruction.data)
        }
    }

    /// All text and CDATA inside node `index`, concatenated.
    func textContent(of index: Int) -> String {
        let end = Int(nodes[index].end)
        var pieces: [Int] = []
        for candidate in (index + 1)..<end where nodes[candidate].kind == .text || nodes[candidate].kind == .cdata {
            pieces.append(candidate)
        }
        if pieces.count == 1 { return string(at: pieces[0]) }
        var text: [UInt8] = []
        for piece in pieces {
            let node = nodes[piece]
            text.append(contentsOf: bytes[Int(node.payload)..<Int(node.payload + node.length)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
