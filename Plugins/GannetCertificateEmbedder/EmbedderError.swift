import Foundation

/// Why the embedder refused its input, worded as a compiler diagnostic (`FILE: error: ...`) so
/// that SwiftPM and editors show it against the offending file.
struct EmbedderError: Error, Equatable, CustomStringConvertible {
    /// The file at fault, as the diagnostic names it; `nil` for command-line mistakes.
    var file: String?
    /// What is wrong, in one sentence.
    var message: String

    init(file: String?, _ message: String) {
        self.file = file
        self.message = message
    }

    var description: String {
        guard let file else { return "error: \(message)" }
        return "\(file): error: \(message)"
    }
}
