@testable import GannetResponseSerialization

extension FuzzTarget {
    /// `MediaType(_:)` and the `Content-Type` extraction. Invariants: a parsed type has token,
    /// lower-case type and subtype and lower-case parameter names; its `description` parses
    /// back to an equal value.
    static let mediaType = FuzzTarget(name: "media-type") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        _ = MediaTypeParser.parseContentType(text)
        guard let type = MediaType(text) else { return }
        require(MediaTypeParser.isToken(type.type) && MediaTypeParser.isToken(type.subtype), "essence \(type.essence)")
        require(type.type == type.type.lowercased() && type.subtype == type.subtype.lowercased(), "case \(type)")
        for name in type.parameters.keys {
            require(MediaTypeParser.isToken(name) && name == name.lowercased(), "parameter \(name.debugDescription)")
        }
        let again = MediaType(type.description)
        require(
            again == type,
            "\(text.debugDescription) -> \(type.description.debugDescription) -> \(String(describing: again))"
        )
    }
}
