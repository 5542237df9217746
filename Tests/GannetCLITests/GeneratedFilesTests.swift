import Foundation
import Testing

@testable import GannetCLI

/// docs/man/gannet.1 and completions/ are generated from ``OptionTable``; the checked-in copies
/// must be what the table generates now, so an option added without regenerating them fails
/// here (regenerate with `bash scripts/generate-cli-files.sh`).
@Suite("gannet's manual and completions match OptionTable")
struct GeneratedFilesTests {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func checkedIn(_ path: String) throws -> String {
        try String(contentsOf: repository.appendingPathComponent(path), encoding: .utf8)
    }

    static let regenerate = "run `bash scripts/generate-cli-files.sh` and commit the result"

    @Test func manPageIsCurrent() throws {
        #expect(
            try Self.checkedIn("docs/man/gannet.1") == ManPage.text,
            "docs/man/gannet.1 is stale: \(Self.regenerate)"
        )
    }

    @Test(arguments: ShellCompletion.allCases)
    func completionIsCurrent(_ shell: ShellCompletion) throws {
        #expect(try Self.checkedIn(shell.fileName) == shell.script, "\(shell.fileName) is stale: \(Self.regenerate)")
    }

    @Test func everyOptionIsInTheManualAndEveryCompletion() {
        for option in OptionTable.all {
            #expect(ManPage.text.contains("\\fB\\-\\-\(ManPage.roff(option.long))\\fR"), "gannet.1: --\(option.long)")
            for shell in ShellCompletion.allCases {
                #expect(
                    shell.script.contains("-\(shell == .fish ? "l " : "-")\(option.long)"),
                    "\(shell): --\(option.long)"
                )
            }
        }
    }

    @Test func theBashCompletionParsesAndCompletes() async throws {
        let script = ShellCompletion.bash.script
        let result = try await GannetBinary.run(
            executable: URL(fileURLWithPath: "/bin/bash"),
            arguments: [
                "-c",
                script + "\nCOMP_WORDS=(gannet --pre); COMP_CWORD=1; _gannet; echo \"${COMPREPLY[*]}\""
                    + "\nCOMP_WORDS=(gannet --pretty f); COMP_CWORD=2; _gannet; echo \"${COMPREPLY[*]}\"",
            ],
            in: nil,
            timeout: .seconds(60)
        )
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "--pretty\nformat\n")
    }

    @Test func theManPageRendersWithoutWarnings() async throws {
        let page = Self.repository.appendingPathComponent("docs/man/gannet.1").path
        let result = try await GannetBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/groff"),
            arguments: ["-man", "-Tutf8", "-ww", "-z", page],
            in: nil,
            timeout: .seconds(60)
        )
        #expect(result.status == 0)
        #expect(result.err.isEmpty, "groff: \(result.err)")
    }

    @Test func theBinaryGeneratesTheSameFiles() async throws {
        let man = try await GannetBinary.run(["--generate-man"])
        #expect(man.status == 0)
        #expect(man.out == ManPage.text)
        let fish = try await GannetBinary.run(["--generate-completion", "fish"])
        #expect(fish.out == ShellCompletion.fish.script)
        let bad = try await GannetBinary.run(["--generate-completion", "tcsh"])
        #expect(bad.status == 2)
    }
}
