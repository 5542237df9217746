import Foundation
import Testing

@testable import GannetCLI

/// `--help` is generated from ``OptionTable``; docs/cli.md is written by hand. Every option of
/// the table must be documented there, with its short name when it has one.
@Suite("gannet help and docs/cli.md agree")
struct HelpDocsConsistencyTests {
    static var cliDocs: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("docs/cli.md")
    }

    @Test func everyOptionIsDocumented() throws {
        let docs = try String(contentsOf: Self.cliDocs, encoding: .utf8)
        for option in OptionTable.all {
            #expect(docs.contains("`--\(option.long)"), "docs/cli.md does not mention --\(option.long)")
            if let short = option.short {
                #expect(
                    docs.contains("`-\(short)`") || docs.contains("`-\(short) "),
                    "docs/cli.md does not give -\(short) for --\(option.long)"
                )
            }
            #expect(HelpText.text.contains("--\(option.long)"))
        }
    }
}
