/// One child of an ``XMLElement``: an element, or a piece of character data.
public enum XMLNode: Sendable, Hashable {
    /// A child element.
    case element(XMLElement)
    /// Character data, with references replaced.
    case text(String)
    /// The content of a CDATA section.
    case cdata(String)
    /// A comment's text.
    case comment(String)
    /// A processing instruction.
    case processingInstruction(target: String, data: String)

    /// The element, when this node is one.
    public var element: XMLElement? {
        if case .element(let element) = self { return element }
        return nil
    }
}
