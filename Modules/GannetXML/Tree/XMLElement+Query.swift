extension XMLElement {
    /// The value of an attribute.
    ///
    /// - Parameters:
    ///   - name: Without `namespaceURI`, the attribute's name as written (`id`, `xml:lang`).
    ///     With it, the local name.
    ///   - namespaceURI: The namespace the attribute must be in.
    public func attribute(_ name: String, namespaceURI: String? = nil) -> String? {
        for record in storage.attributeRecords(of: index) {
            let localName = storage.names[Int(record.name)]
            let matches: Bool
            if let namespaceURI {
                matches = localName == name && storage.name(record.namespaceURI) == namespaceURI
            } else if let prefix = storage.name(record.prefix) {
                matches = XMLTreeStorage.isQualifiedName(name, prefix: prefix, localName: localName)
            } else {
                matches = localName == name
            }
            if matches { return storage.string(offset: record.valueOffset, length: record.valueLength) }
        }
        return nil
    }

    /// The child elements called `name`, in order.
    ///
    /// - Parameters:
    ///   - name: Without `namespaceURI`, the name as written (`atom:title`) or the local name
    ///     (`title`). With it, the local name.
    ///   - namespaceURI: The namespace the elements must be in.
    public func elements(named name: String, namespaceURI: String? = nil) -> [XMLElement] {
        storage.childIndices(of: index).compactMap { child in
            storage.elementMatches(child, name, namespaceURI: namespaceURI)
                ? XMLElement(storage: storage, index: child) : nil
        }
    }

    /// The first child element called `name` (matched as in ``elements(named:namespaceURI:)``).
    public func element(named name: String, namespaceURI: String? = nil) -> XMLElement? {
        for child in storage.childIndices(of: index)
        where storage.elementMatches(child, name, namespaceURI: namespaceURI) {
            return XMLElement(storage: storage, index: child)
        }
        return nil
    }

    /// Every element below this one called `name`, in document order (matched as in
    /// ``elements(named:namespaceURI:)``).
    public func descendants(named name: String, namespaceURI: String? = nil) -> [XMLElement] {
        ((index + 1)..<Int(storage.nodes[index].end)).compactMap { candidate in
            storage.elementMatches(candidate, name, namespaceURI: namespaceURI)
                ? XMLElement(storage: storage, index: candidate) : nil
        }
    }

    /// The first element, in document order, reached by following `path` down from this
    /// element: child names separated by `/`, each matched as in
    /// ``elements(named:namespaceURI:)``, `*` matching any element. `element(at: "slide/title")`
    /// is the `title` of the first `slide` that has one. An empty path is this element.
    public func element(at path: String) -> XMLElement? {
        let steps = path.split(separator: "/", omittingEmptySubsequences: true)
        return storage.element(below: index, following: steps[...]).map { XMLElement(storage: storage, index: $0) }
    }
}

extension XMLTreeStorage {
    /// Whether node `index` is an element called `name`: by local name and namespace when a
    /// namespace is given, otherwise by the name as written or the local name.
    func elementMatches(_ index: Int, _ name: some StringProtocol, namespaceURI: String?) -> Bool {
        guard nodes[index].kind == .element else { return false }
        let element = element(at: index)
        let localName = names[Int(element.name)]
        if let namespaceURI { return localName == name && self.name(element.namespaceURI) == namespaceURI }
        if localName == name { return true }
        guard let prefix = self.name(element.prefix) else { return false }
        return Self.isQualifiedName(name, prefix: prefix, localName: localName)
    }

    /// Whether `name` is `prefix:localName`, compared without building that string.
    static func isQualifiedName(_ name: some StringProtocol, prefix: String, localName: String) -> Bool {
        let utf8 = name.utf8
        return utf8.count == prefix.utf8.count + 1 + localName.utf8.count
            && utf8.starts(with: prefix.utf8)
            && utf8.dropFirst(prefix.utf8.count).first == UInt8(ascii: ":")
            && utf8.suffix(localName.utf8.count).elementsEqual(localName.utf8)
    }

    /// The first element below node `index` reached by `steps`, searching depth-first.
    func element(below index: Int, following steps: ArraySlice<Substring>) -> Int? {
        guard let step = steps.first else { return index }
        for child in childIndices(of: index)
        where nodes[child].kind == .element && (step == "*" || elementMatches(child, step, namespaceURI: nil)) {
            if let found = element(below: child, following: steps.dropFirst()) { return found }
        }
        return nil
    }
}
