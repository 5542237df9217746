/// How the generated file must import Foundation to agree with the rest of its module.
///
/// Swift 6 rejects a module where one file writes `import Foundation` and another gives the same
/// import an explicit access level (`internal import Foundation`) unless the module adopts
/// InternalImportsByDefault: "ambiguous implicit access level for import of 'Foundation'".
/// An explicit `internal import` in the generated file fails the other way round, next to a plain
/// `import Foundation` without that feature. So the generated file copies the module's habit:
/// plain unless some source file of the target already imports Foundation with an access level.
enum FoundationImportStyle: Equatable {
    /// `import Foundation`.
    case plain
    /// `internal import Foundation`.
    case explicitInternal

    var declaration: String {
        switch self {
        case .plain: "import Foundation"
        case .explicitInternal: "internal import Foundation"
        }
    }

    /// The style that agrees with these Swift sources (their text).
    static func matching(sources: some Sequence<String>) -> FoundationImportStyle {
        for source in sources where source.contains("import") {
            for line in source.split(whereSeparator: \.isNewline) where importsFoundationWithAccessLevel(line) {
                return .explicitInternal
            }
        }
        return .plain
    }

    private static let accessLevels: Set<Substring> = ["public", "package", "internal", "fileprivate", "private"]
    private static let importKinds: Set<Substring> = [
        "typealias", "struct", "class", "enum", "protocol", "let", "var", "func",
    ]

    /// `[@attribute ...] ACCESS import [KIND] Foundation[.Member]`.
    static func importsFoundationWithAccessLevel(_ line: Substring) -> Bool {
        var words = line.split(whereSeparator: \.isWhitespace)[...]
        while let first = words.first, first.hasPrefix("@") { words = words.dropFirst() }
        guard let access = words.popFirst(), accessLevels.contains(access), words.popFirst() == "import" else {
            return false
        }
        if let kind = words.first, importKinds.contains(kind) { words = words.dropFirst() }
        guard let module = words.first else { return false }
        return module == "Foundation" || module.hasPrefix("Foundation.")
    }
}
