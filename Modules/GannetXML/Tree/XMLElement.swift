/// An element of a parsed ``XMLDocument``: its name, attributes, children and text.
///
/// A lightweight, immutable view into the document's storage: copying one copies a reference,
/// and names, attributes and text are read from the document when asked for. Two elements
/// are equal when they are the same element of the same parsed document.
///
/// ```swift
/// let document = try XMLDocument.parse(data: body)
/// let title = document.element(at: "slideshow/slide/title")?.text
/// for slide in document.root?.elements(named: "slide") ?? [] {
///     print(slide.attribute("type") ?? "-", slide.element(named: "title")?.text ?? "")
/// }
/// ```
public struct XMLElement: Sendable {
    let storage: XMLTreeStorage
    let index: Int

    init(storage: XMLTreeStorage, index: Int) {
        self.storage = storage
        self.index = index
    }

    /// The local name, without prefix.
    public var name: String { storage.names[Int(storage.element(at: index).name)] }

    /// The prefix as written, `nil` when unprefixed.
    public var prefix: String? { storage.name(storage.element(at: index).prefix) }

    /// The namespace the element is in, `nil` for none.
    public var namespaceURI: String? { storage.name(storage.element(at: index).namespaceURI) }

    /// The name as written in the document: `prefix:name`, or `name`.
    public var qualifiedName: String {
        guard let prefix else { return name }
        return prefix + ":" + name
    }

    /// The attributes in document order, namespace declarations excluded.
    public var attributes: [XMLAttribute] {
        storage.attributeRecords(of: index).map { storage.attribute($0) }
    }

    /// The `xmlns` declarations written on this element.
    public var namespaceDeclarations: [XMLNamespaceDeclaration] {
        let element = storage.element(at: index)
        let records = storage.namespaces[
            Int(element.firstNamespace)..<Int(element.firstNamespace + element.namespaceCount)
        ]
        return records.map { XMLNamespaceDeclaration(prefix: storage.name($0.prefix), uri: storage.name($0.uri) ?? "") }
    }

    /// Child elements, text, CDATA sections, comments and processing instructions, in order.
    public var children: [XMLNode] {
        storage.childIndices(of: index).map { storage.node(at: $0) }
    }

    /// The child elements, in order.
    public var elements: [XMLElement] {
        storage.childIndices(of: index).compactMap { child in
            storage.nodes[child].kind == .element ? XMLElement(storage: storage, index: child) : nil
        }
    }

    /// All text inside this element, CDATA sections and descendants included, concatenated in
    /// document order (the DOM's `textContent`).
    public var text: String { storage.textContent(of: index) }

    /// The element this one is nested in, `nil` for the root.
    public var parent: XMLElement? {
        // The parent is the nearest earlier element whose subtree still covers this index.
        var candidate = index - 1
        while candidate > 0 {
            let node = storage.nodes[candidate]
            if node.kind == .element && Int(node.end) > index { return XMLElement(storage: storage, index: candidate) }
            candidate -= 1
        }
        return nil
    }
}

extension XMLElement: Hashable {
    /// Whether both are the same element of the same parsed document.
    public static func == (lhs: XMLElement, rhs: XMLElement) -> Bool {
        lhs.storage === rhs.storage && lhs.index == rhs.index
    }

    /// Hashes the element's identity (its document and position).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(storage))
        hasher.combine(index)
    }
}

extension XMLElement: CustomStringConvertible {
    /// The start tag with its attributes, and how many children follow.
    public var description: String {
        let attributes = attributes.map { " \($0.qualifiedName)=\"\($0.value)\"" }.joined()
        return
            "<\(qualifiedName)\(attributes)> (\(storage.childIndices(of: index).reduce(0) { count, _ in count + 1 }) children)"
    }
}
