import Testing

@testable import GannetCLI

/// `Content-Disposition` file names as quoted-strings, and the control characters a saved
/// name never keeps.
@Suite("gannet --download quoted file names")
struct DispositionQuotingTests {
    @Test(
        arguments: [
            (#"attachment; filename="a;b.txt""#, "a;b.txt"),
            (#"attachment; filename="say \"hi\".txt"; size=3"#, #"say "hi".txt"#),
            (#"attachment; size=3; filename=last.bin"#, "last.bin"),
            ("attachment; filename=\"evil\u{1B}]0;pwned\u{07}.txt\"", "evil\u{1B}]0;pwned\u{07}.txt"),
        ] as [(String, String)]
    )
    func quotedValues(_ header: String, _ expected: String) {
        #expect(DownloadCommand.dispositionFileName(header) == expected)
    }

    @Test func escapesAreVisibleAndOrdinaryTextIsUntouched() {
        #expect(ControlEscaping.escaped("plain, ünïcödé ✓") == "plain, ünïcödé ✓")
        #expect(
            ControlEscaping.escaped("a\u{1B}[2Jb\tc\r\nd\u{7F}\u{85}\u{202E}\u{2066}")
                == #"a\x1b[2Jb\tc\r\nd\x7f\u{85}\u{202e}\u{2066}"#
        )
        #expect(ControlEscaping.escaped("\u{0}") == #"\x00"#)
    }
}
