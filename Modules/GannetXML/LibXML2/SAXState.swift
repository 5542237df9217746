internal import CLibXML2

/// The mutable state of a ``SAXParserContext`` that its callbacks touch on every event.
struct SAXState: ~Copyable {
    /// Set by the first failure; every callback returns at once afterwards.
    var hasFailed = false
    /// How many elements are open.
    var depth = 0
    /// The text or CDATA run being coalesced.
    var text = TextBuffer()
    /// libxml2's name dictionary for this context, which owns every interned name.
    var dictionary: xmlDictPtr?
    /// Entity references expanded so far, nested ones included.
    var entityExpansions = 0
    /// Replacement-text bytes those expansions produced.
    var entityExpansionBytes = 0
    /// Reused for every start tag: the attributes handed to the sink. Plain memory (the
    /// records are pointers and integers), grown when a tag has more attributes than any before.
    private(set) var attributes = UnsafeMutablePointer<SAXAttribute>.allocate(capacity: 16)
    private var attributeCapacity = 16
    /// Reused for every start tag: attribute values that needed decoding, back to back.
    var decodedValues: [UInt8] = []

    deinit { attributes.deallocate() }

    /// Makes room for `count` attributes, discarding the previous tag's.
    mutating func reserveAttributes(_ count: Int) {
        guard count > attributeCapacity else { return }
        attributes.deallocate()
        attributes = .allocate(capacity: count)
        attributeCapacity = count
    }
}
