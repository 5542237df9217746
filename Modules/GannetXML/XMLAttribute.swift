/// One attribute of a start tag, with its namespace resolved.
///
/// `xmlns` and `xmlns:p` declarations are not attributes here: they arrive separately as
/// ``XMLNamespaceDeclaration``s, as in the XML Namespaces recommendation's data model.
public struct XMLAttribute: Sendable, Hashable {
    /// The local name, without prefix (`lang` for `xml:lang`).
    public var name: String
    /// The prefix as written, `nil` for an unprefixed attribute.
    public var prefix: String?
    /// The namespace the prefix is bound to; `nil` for an unprefixed attribute, which is in no
    /// namespace (https://www.w3.org/TR/xml-names/#defaulting).
    public var namespaceURI: String?
    /// The normalized value, with character and entity references replaced.
    public var value: String

    /// Creates an attribute.
    public init(name: String, prefix: String? = nil, namespaceURI: String? = nil, value: String) {
        self.name = name
        self.prefix = prefix
        self.namespaceURI = namespaceURI
        self.value = value
    }

    /// The name as written in the document: `prefix:name`, or `name`.
    public var qualifiedName: String {
        guard let prefix else { return name }
        return prefix + ":" + name
    }
}
