import Foundation
import Testing

/// The generated file imports Foundation the way the rest of its module does (see
/// FoundationImportStyle.swift for why a mismatch does not compile).
@Suite("Foundation import style of the generated file")
struct FoundationImportStyleTests {
    @Test(
        "a plain import, or none, keeps the generated import plain",
        arguments: [
            "import Foundation\nstruct A {}",
            "@preconcurrency import Foundation",
            "internal import Dispatch\nimport Foundation",
            "// internal import Foundation, once upon a time",
            "let text = \"internal import Foundation\"",
            "internal import FoundationEssentials",
            "",
        ]
    )
    func plain(source: String) async throws {
        #expect(try await importLine(besides: source) == "import Foundation")
    }

    @Test(
        "any access-level import of Foundation makes it `internal import`",
        arguments: [
            "internal import Foundation",
            "public import Foundation",
            "package import Foundation",
            "private import Foundation",
            "fileprivate import Foundation",
            "  @preconcurrency internal import Foundation",
            "internal import struct Foundation.Data",
            "public import Foundation.NSString",
        ]
    )
    func explicit(source: String) async throws {
        #expect(try await importLine(besides: "struct A {}\n" + source) == "internal import Foundation")
    }

    private func importLine(besides source: String) async throws -> String? {
        let target = try TemporaryDirectory()
        let other = try target.write("Other.swift", "import Dispatch\n")
        let module = try target.write("Module.swift", source)
        let run = try await Embedder.run(root: target.url, files: [], swiftSources: [other, module])
        #expect(run.status == 0, "\(run.errors)")
        return run.importLine
    }
}
