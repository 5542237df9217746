import Foundation
import GannetTestSupport
import Testing

/// Issue 24, class 5: no text from a server or a certificate reaches the terminal raw. Each
/// case runs the real `gannet` against a hostile server (the fault server's `/hostile-text`,
/// nginx with the `hostileSubject` certificate, whose common name holds `ESC ] 0 ; … BEL`,
/// `ESC [ 2J`, a C1 CSI and a bidi override) down one path where such text is printed:
/// headers, reason phrase, redirect target, file names, pins, TLS errors, metrics, error
/// messages. Every path must print it through ControlEscaping (docs/cli.md, "What is escaped").
@Suite("gannet prints server text escaped, on every path")
struct CLITerminalEscapingTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    var ca: String { servers.certificates.caBundle }
    var hostileTLS: String { servers.tlsEndpoint(.hostileSubject).absoluteString }

    /// What a terminal would obey: C0 controls but the line feed, DEL, C1 controls, and the
    /// bidirectional overrides and isolates.
    static func obeyed(_ text: String) -> [String] {
        text.unicodeScalars.filter { scalar in
            switch scalar.value {
            case 0x0A: false
            case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
            default: false
            }
        }.map { String(format: "U+%04X", $0.value) }
    }

    /// The hostile text as gannet prints it, made visible.
    static let visible = #"\x1b]0;pwned\x07\x1b[2J\u{9b}31m\u{202e}"#

    /// Runs `arguments` and checks that neither stream holds anything a terminal would obey
    /// and that the hostile text did reach the output (`expectVisible`), escaped.
    @discardableResult
    func walk(
        _ path: String,
        _ arguments: [String],
        in directory: URL? = nil,
        expectVisible: Bool = true,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> GannetBinary.Result {
        let result = try await GannetBinary.run(arguments, in: directory)
        let output = result.out + result.err
        #expect(
            Self.obeyed(output).isEmpty,
            "\(path): raw \(Self.obeyed(output)) in \(output.debugDescription)",
            sourceLocation: sourceLocation
        )
        if expectVisible {
            #expect(
                output.contains("pwned"),
                "\(path): the hostile text never reached the output: \(output)",
                sourceLocation: sourceLocation
            )
        }
        return result
    }

    @Test func headersReasonPhraseAndMetrics() async throws {
        let result = try await walk("headers", ["--print=Hhm", "\(fault)/hostile-text"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("X-Hostile: value" + Self.visible), "\(result.out)")
        #expect(result.out.contains("200 Reason" + Self.visible), "\(result.out)")
    }

    @Test func reasonPhraseInTheCheckStatusWarning() async throws {
        let result = try await walk(
            "--check-status",
            ["--check-status", "--print=h", "\(fault)/hostile-text?status=404"]
        )
        #expect(result.status == 4)
        #expect(result.err.contains("404 Reason" + Self.visible), "\(result.err)")
    }

    @Test func redirectTargetWithFollowAndVerbose() async throws {
        // Followed (the Location's escapes percent-encoded) or refused, nothing raw is printed.
        try await walk(
            "redirect",
            ["--follow", "--print=Hh", "\(fault)/hostile-text?location=1"],
            expectVisible: false
        )
        // Not followed: the 302's head, Location included, is printed escaped.
        let shown = try await walk("302", ["--print=h", "\(fault)/hostile-text?location=1"])
        #expect(shown.out.contains("Location: /ok?" + Self.visible), "\(shown.out)")
    }

    @Test func aHostileHeaderNameIsAProtocolErrorPrintedClean() async throws {
        let result = try await walk("header name", ["--print=h", "\(fault)/hostile-text?name=1"], expectVisible: false)
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.hasPrefix("gannet: error: "), "\(result.err)")
    }

    @Test func downloadFileNameAndHead() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-escape-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await walk("--download", ["--download", "\(fault)/hostile-text"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.count == 1 && names.allSatisfy { Self.obeyed($0).isEmpty }, "\(names)")
    }

    @Test func pinsOfAServerWhoseCertificateSubjectIsHostile() async throws {
        let result = try await walk("pins URL", ["pins", hostileTLS])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("CN=evil" + #"\x1b]0;pwned\x07\x1b[2J"#), "\(result.out)")
    }

    @Test func pinsOfAHostileCertificateFile() async throws {
        let result = try await walk("pins file", ["pins", servers.certificates.leaf(.hostileSubject).pem])
        #expect(result.status == 0, "\(result.err)")
    }

    /// A pin that fails lists what the server presented, subjects included, in the error.
    @Test func tlsErrorNamingTheHostileSubject() async throws {
        let wrongPin = "sha256/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
        let result = try await walk("TLS error", ["--cacert", ca, "--pin", wrongPin, hostileTLS + "small"])
        #expect(result.status == 1, "\(result.err)")
    }

    @Test func tlsErrorOfAnUntrustedHostileServer() async throws {
        let result = try await walk("untrusted", [hostileTLS + "small"], expectVisible: false)
        #expect(result.status == 1, "\(result.err)")
    }

    @Test func verboseOutputOfTheHostileTLSServer() async throws {
        let result = try await walk(
            "-v TLS",
            ["--cacert", ca, "--print=Hhm", hostileTLS + "small"],
            expectVisible: false
        )
        #expect(result.status == 0, "\(result.err)")
    }
}
