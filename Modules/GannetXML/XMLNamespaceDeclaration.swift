/// A namespace declaration on a start tag: `xmlns="uri"` or `xmlns:prefix="uri"`.
public struct XMLNamespaceDeclaration: Sendable, Hashable {
    /// The declared prefix; `nil` for a default namespace declaration (`xmlns="…"`).
    public var prefix: String?
    /// The namespace name. Empty when a default declaration undeclares the default namespace
    /// (`xmlns=""`).
    public var uri: String

    /// Creates a declaration.
    public init(prefix: String?, uri: String) {
        self.prefix = prefix
        self.uri = uri
    }
}
