import Testing

@testable import GannetRequestSerialization

/// AFNetworking escaped in batches of 50 UTF-16 units and had to widen each batch so that it
/// did not split an emoji or combining sequence. Gannet escapes in one pass; these cases would
/// catch any chunking (at 50, 100, or any other size up to 120 characters) that split a
/// sequence, by comparing with Foundation's own escaping and decoding the result back.
@Suite("Percent escaping across chunk boundaries")
struct PercentEscapingTests {
    /// Sequences of 1 to 11 UTF-16 units, each one grapheme.
    static let sequences: [String] = [
        "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}",  // family: ZWJ sequence, 11 UTF-16 units
        "\u{1F44D}\u{1F3FD}",  // thumbs up with skin tone
        "\u{1F1EB}\u{1F1F7}",  // flag: regional indicators
        "e\u{301}",  // e + combining acute
        "a\u{308}\u{323}\u{30A}",  // several combining marks
        "\u{1112}\u{1161}\u{11AB}",  // decomposed Hangul syllable
        "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",  // rainbow flag: variation selector + ZWJ
        "\u{20AC}",  // one BMP scalar, 3 UTF-8 bytes
        "\u{1F426}",  // one astral scalar (bird), a surrogate pair
    ]

    /// The escaping rule written independently: Foundation's `addingPercentEncoding` with
    /// exactly the characters AFNetworking leaves alone.
    static let reference = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/?"
    )

    private func check(_ text: String) throws {
        let escaped = try PercentEscaping.escape(text, encoding: .utf8, spaceEncoding: .percentEscaped)
        #expect(
            escaped == text.addingPercentEncoding(withAllowedCharacters: Self.reference),
            "\(text.debugDescription)"
        )
        #expect(escaped.removingPercentEncoding == text, "\(text.debugDescription)")
        #expect(escaped.utf8.allSatisfy { $0 < 0x80 })
    }

    @Test("A sequence repeated 1…120 times is escaped whole", arguments: sequences)
    func repeatedSequences(sequence: String) throws {
        for count in 1...120 {
            try check(String(repeating: sequence, count: count))
        }
    }

    @Test("A sequence after 0…120 ASCII characters straddles every chunk position", arguments: sequences)
    func shiftedSequences(sequence: String) throws {
        for prefix in 0...120 {
            try check(String(repeating: "a", count: prefix) + sequence + "b")
            try check(String(repeating: "%", count: prefix) + sequence + sequence)
        }
    }

    @Test("The query encoder keeps every grapheme of a long mixed value")
    func longMixedValue() throws {
        let value = (0..<120).map { Self.sequences[$0 % Self.sequences.count] + String($0 % 10) }.joined()
        let query = try HTTPRequestSerializer().queryString(from: ["v": value])
        #expect(query.hasPrefix("v="))
        #expect(String(query.dropFirst(2)).removingPercentEncoding == value)
        #expect(String(query.dropFirst(2)).removingPercentEncoding?.count == value.count)
    }
}
