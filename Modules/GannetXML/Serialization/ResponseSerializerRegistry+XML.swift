extension ResponseSerializerRegistry {
    /// The standard registry (JSON, text, validated data) with XML documents added ahead of
    /// the text entry, so `text/xml` becomes an ``XMLDocument`` rather than a string.
    ///
    /// ```swift
    /// manager.responseSerializer = ResponseSerializerRegistry.standardWithXML
    /// ```
    public static var standardWithXML: ResponseSerializerRegistry {
        var registry = ResponseSerializerRegistry.standard
        registry.registerXML()
        return registry
    }

    /// Registers ``XMLDocumentResponseSerializer`` for ``GannetVocabulary/MediaType/xmlTypes``, by default ahead
    /// of every existing entry (the standard registry's `text/*` entry would otherwise take
    /// `text/xml`).
    public mutating func registerXML(options: XMLParsingOptions = XMLParsingOptions(), placement: Placement = .first) {
        register(XMLDocumentResponseSerializer(options: options), for: MediaType.xmlTypes, placement: placement)
    }
}
