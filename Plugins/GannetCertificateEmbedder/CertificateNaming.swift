import Foundation

/// Gives every embedded certificate a Swift identifier derived from its file name.
///
/// - The stem is the file name without its last extension: `my-cert.v2.pem` → `my-cert.v2`.
/// - Accents are dropped (`café` → `cafe`); runs of ASCII letters and digits are words, anything
///   else separates them (so a stem in another script gives `certificate`); the words are
///   camel-cased (`myCertV2`). A first word written in capitals is lowered whole (`ISRG-root` →
///   `isrgRoot`); other words keep their case after the first letter.
/// - A name starting with a digit gets the prefix `cert` (`2024-root` → `cert2024Root`); a stem
///   with no letters or digits becomes `certificate`; a Swift keyword or `all` gets the suffix
///   `Certificate` (`default.pem` → `defaultCertificate`).
/// - A file with several certificates names them `<name>`, `<name>2`, `<name>3`, ...
/// - When a file's names are taken by an earlier file (files are named in path order), its
///   extension joins the name (`root-ca.pem` after `root-ca.der` → `rootCaPem`), and if those
///   are taken too, `_2`, `_3`, ... is appended to that.
struct CertificateNaming {
    private var taken: Set<String> = ["all"]

    /// The names for the `count` certificates of the file named `fileName`, reserved so that
    /// no later file gets them.
    mutating func names(forFile fileName: String, count: Int) -> [String] {
        let (stem, fileExtension) = Self.split(fileName)
        let base = Self.identifier(fromStem: stem)
        let extended =
            base + Self.capitalized(fileExtension.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
        var attempt = 0
        while true {
            let candidate = attempt == 0 ? base : attempt == 1 ? extended : "\(extended)_\(attempt)"
            let names = Self.numbered(candidate, count: count)
            if isFree(names) {
                taken.formUnion(names)
                return names
            }
            attempt += 1
        }
    }

    private func isFree(_ names: [String]) -> Bool {
        names.allSatisfy { !taken.contains($0) }
    }

    private static func numbered(_ base: String, count: Int) -> [String] {
        [base] + (1..<max(count, 1)).map { "\(base)\($0 + 1)" }
    }

    /// `("my-cert.v2", "pem")` for `my-cert.v2.pem`; a leading dot does not start an extension.
    static func split(_ fileName: String) -> (stem: String, extension: String) {
        guard let dot = fileName.lastIndex(of: "."), dot != fileName.startIndex else { return (fileName, "") }
        return (String(fileName[..<dot]), String(fileName[fileName.index(after: dot)...]))
    }

    /// The camel-cased identifier for a file stem, before any disambiguation.
    static func identifier(fromStem stem: String) -> String {
        // Accents come off first, so that `café` gives `cafe` rather than `caf`.
        let folded = stem.folding(options: [.diacriticInsensitive, .widthInsensitive], locale: nil)
        let words = folded.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
        guard let first = words.first else { return "certificate" }
        let head = first.allSatisfy { !$0.isLetter || $0.isUppercase } ? first.lowercased() : lowerFirst(first)
        var name = head + words.dropFirst().map(capitalized).joined()
        if let initial = name.first, initial.isNumber {
            name = "cert" + name
        }
        if reservedWords.contains(name) {
            name += "Certificate"
        }
        return name
    }

    private static func lowerFirst(_ word: String) -> String {
        word.prefix(1).lowercased() + word.dropFirst()
    }

    private static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    /// Swift's reserved words (The Swift Programming Language, "Lexical Structure: Keywords
    /// and Punctuation"), which cannot name a `static let` without backquotes, and `all`, the
    /// generated list itself.
    static let reservedWords: Set<String> = [
        "all",
        // Declarations
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
        "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator",
        "package", "private", "precedencegroup", "protocol", "public", "rethrows", "static", "struct",
        "subscript", "typealias", "var",
        // Statements
        "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
        "guard", "if", "in", "repeat", "return", "switch", "throw", "where", "while",
        // Expressions and types
        "any", "as", "await", "false", "is", "nil", "self", "super", "throws", "true", "try",
    ]
}
