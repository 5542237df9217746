import Foundation

/// The encapsulated blocks of a PEM file (RFC 7468): `-----BEGIN LABEL-----`, base64 lines,
/// `-----END LABEL-----`. Text outside the blocks is explanatory and ignored, as RFC 7468 §5.2
/// allows (`openssl x509 -text` writes the decoded certificate above its PEM block).
struct PEMDocument {
    /// One block: its label (`CERTIFICATE`, `PRIVATE KEY`, ...) and its decoded bytes.
    struct Block: Equatable {
        var label: String
        var bytes: Data
    }

    var blocks: [Block]

    /// Whether `text` has at least one PEM boundary line (so a stray END is reported as such).
    static func looksLikePEM(_ text: String) -> Bool {
        text.contains("-----BEGIN ") || text.contains("-----END ")
    }

    /// Parses every block; throws a sentence (without the file name) for a block that never
    /// ends, ends under another label, or holds something other than base64.
    init(parsing text: String) throws(PEMError) {
        blocks = []
        var open: (label: String, line: Int)?
        var base64 = ""
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            let lineNumber = index + 1
            if let label = Self.label(of: line, marker: "BEGIN") {
                if let open {
                    throw PEMError(
                        "line \(lineNumber): BEGIN \(label) inside the \(open.label) block opened on line \(open.line)"
                    )
                }
                open = (label, lineNumber)
                base64 = ""
            } else if let label = Self.label(of: line, marker: "END") {
                guard let block = open else {
                    throw PEMError("line \(lineNumber): END \(label) without a matching BEGIN")
                }
                guard label == block.label else {
                    throw PEMError(
                        "line \(lineNumber): END \(label) closes the \(block.label) block opened on line \(block.line)"
                    )
                }
                guard let bytes = Data(base64Encoded: base64), !bytes.isEmpty else {
                    throw PEMError("the \(label) block on line \(block.line) is not valid base64")
                }
                blocks.append(Block(label: label, bytes: bytes))
                open = nil
            } else if open != nil {
                // Line breaks inside a block carry no meaning (RFC 7468 §3), spaces neither.
                base64 += line.filter { !$0.isWhitespace }
            }
        }
        if let open {
            throw PEMError("the \(open.label) block opened on line \(open.line) has no END line")
        }
    }

    /// `LABEL` when `line` is `-----BEGIN LABEL-----` (for `marker` BEGIN), else `nil`.
    private static func label(of line: String, marker: String) -> String? {
        let prefix = "-----\(marker) "
        let suffix = "-----"
        guard line.hasPrefix(prefix), line.hasSuffix(suffix), line.count >= prefix.count + suffix.count else {
            return nil
        }
        return String(line.dropFirst(prefix.count).dropLast(suffix.count))
    }

    /// What was wrong with the PEM text.
    struct PEMError: Error, Equatable {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }
}
