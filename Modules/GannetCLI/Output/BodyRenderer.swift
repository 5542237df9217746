import Gannet

/// Turns a response (or request) body into what is printed: JSON and XML re-indented and
/// coloured when asked, text as it is, binary data refused on a terminal as httpie does.
struct BodyRenderer: Sendable {
    let pretty: Options.Pretty
    let toTerminal: Bool

    var palette: Palette { Palette(enabled: pretty.colors) }

    /// What the body is, from its `Content-Type` (JSON and XML media types, suffixes included).
    enum Kind: Equatable {
        case json, xml, text, other
    }

    static func kind(of contentType: String?) -> Kind {
        guard let contentType, let mediaType = MediaType(contentType) else { return .other }
        if mediaType.subtype == "json" || mediaType.suffix == "json" || mediaType.essence == "text/javascript" {
            return .json
        }
        if mediaType.subtype == "xml" || mediaType.suffix == "xml" { return .xml }
        return mediaType.type == "text" ? .text : .other
    }

    /// httpie's binary guard, a little stricter: a NUL byte, or bytes that are not UTF-8 in a
    /// body that does not declare itself text, mean it is not for a terminal.
    static func isBinary(_ data: Data, kind: Kind) -> Bool {
        let sample = data.prefix(64 * 1024)
        if sample.contains(0) { return true }
        if kind != .other { return false }
        // A sample cut inside a multi-byte character is still text: allow up to 3 bytes off.
        let tolerance = sample.count < data.count ? min(3, sample.count) : 0
        for cut in 0...tolerance where String(validating: sample.dropLast(cut), as: UTF8.self) != nil {
            return false
        }
        return true
    }

    static let binaryNote =
        "+-----------------------------------------+\n| NOTE: binary data not shown in terminal |\n+-----------------------------------------+\n"

    /// The bytes to print for `data` whose type is `kind`.
    func render(_ data: Data, kind: Kind) -> Data {
        if toTerminal, Self.isBinary(data, kind: kind) { return Data(Self.binaryNote.utf8) }
        guard pretty != .none else { return data }
        switch kind {
        case .json:
            if let text = JSONFormatter.format(data, indent: pretty.format, palette: palette) { return Data(text.utf8) }
        case .xml:
            if let text = XMLFormatter.format(data, indent: pretty.format, palette: palette) { return Data(text.utf8) }
        case .text, .other:
            break
        }
        return data
    }
}
