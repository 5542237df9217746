import Foundation
import GannetTestSupport
import Testing

/// What `gannet` prints is what went over the wire: the server's reason phrase and header
/// order (duplicates kept), the protocol actually used, the task's metrics; control characters
/// from the server escaped; no colours under `NO_COLOR` or `--style=none`.
@Suite("gannet output fidelity")
struct CLIOutputFidelityTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    var ca: String { servers.certificates.caBundle }

    func lines(_ text: String) -> [String] {
        // A terminal's lines end in "\r\n", which is one Character in Swift: split on it first.
        text.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
    }

    /// `X-Escape` of the fault server's `/raw-head`, as gannet prints it.
    static let escapedValue = #"X-Escape: \x1b[31mred\x1b[0m\x07bell\x7fdel \u{9b}c1 \u{202e}rtl"#

    // MARK: The head as sent

    @Test func serversOwnReasonPhraseAndHeaderOrderWithDuplicates() async throws {
        let result = try await GannetBinary.run(["--headers", "\(fault)/raw-head"])
        #expect(result.status == 0, "\(result.err)")
        let head = lines(result.out)
        #expect(head.first == "HTTP/1.1 200 Fine By Me")
        #expect(Array(head.dropFirst().prefix(4)) == ["Zeta: first", "X-Dup: one", "Alpha: second", "X-Dup: two"])
        // Other servers' own phrases: the fault server's generic one, werkzeug's capitals.
        #expect(lines(try await GannetBinary.run(["-h", "\(fault)/status/418"]).out).first == "HTTP/1.1 418 Status")
        #expect(
            lines(try await GannetBinary.run(["-h", "\(httpbin)/status/418"]).out).first == "HTTP/1.1 418 I'M A TEAPOT"
        )
        let warning = try await GannetBinary.run(["--check-status", "-h", "\(fault)/status/503"])
        #expect(warning.status == 5)
        #expect(warning.err == "gannet: warning: HTTP 503 Status\n")
    }

    @Test func repeatedSetCookieHeadersStayApart() async throws {
        let result = try await GannetBinary.run(["-h", "\(httpbin)/response-headers?Set-Cookie=a%3D1&Set-Cookie=b%3D2"])
        let cookies = lines(result.out).filter { $0.hasPrefix("Set-Cookie: ") }
        #expect(cookies == ["Set-Cookie: a=1", "Set-Cookie: b=2"], "\(result.out)")
    }

    @Test func controlCharactersFromTheServerArePrintedEscaped() async throws {
        let piped = try await GannetBinary.run(["-h", "\(fault)/raw-head"])
        #expect(lines(piped.out).contains(Self.escapedValue), "\(piped.out)")
        #expect(lines(piped.out).contains(#"Content-Disposition: attachment; filename="evil\x1b]0;pwned\x07.txt""#))
        #expect(!piped.stdout.contains(0x1B) && !piped.stdout.contains(0x07) && !piped.stdout.contains(0x7F))
        #expect(!piped.out.unicodeScalars.contains { $0.value == 0x9B || $0.value == 0x202E })

        // On a terminal, with colours, the only ESC bytes are gannet's own colour codes.
        let terminal = try await GannetBinary.runOnTerminal(["-h", "\(fault)/raw-head"])
        #expect(
            terminal.out.contains("X-Escape\u{1B}[0m: \\x1b[31mred\\x1b[0m\\x07bell"),
            "\(terminal.out.debugDescription)"
        )
        #expect(!terminal.out.contains("\u{1B}]0;") && !terminal.stdout.contains(0x07))
    }

    @Test func aDownloadNamedByTheServerIsSavedAndPrintedWithoutControlCharacters() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-escape-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await GannetBinary.run(["--download", "\(fault)/raw-head"], in: folder)
        #expect(result.status == 0, "\(result.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["evil_]0;pwned_.txt"])
        #expect(!result.stderr.contains(0x1B) && !result.stderr.contains(0x07), "\(result.err.debugDescription)")
        #expect(result.err.contains(#"filename="evil\x1b]0;pwned\x07.txt""#))
        #expect(result.err.contains("evil_]0;pwned_.txt\" in "))
    }

    // MARK: The protocol used

    @Test func requestLineShowsHTTP2WhenItWasUsed() async throws {
        let result = try await GannetBinary.run([
            "-v", "--cacert", ca, servers.tlsEndpoint(.good).absoluteString + "small",
        ])
        #expect(result.status == 0, "\(result.err)")
        let output = lines(result.out)
        #expect(output.first == "GET /small HTTP/2", "\(result.out)")
        #expect(output.contains("HTTP/2 200"), "no reason phrase exists in HTTP/2: \(result.out)")
        let http1 = try await GannetBinary.run([
            "-v", "--cacert", ca, servers.tlsEndpoint(.http1Only).absoluteString + "small",
        ])
        #expect(lines(http1.out).first == "GET /small HTTP/1.1", "\(http1.out)")
        #expect(lines(http1.out).contains("HTTP/1.1 200 OK"))
    }

    // MARK: Metrics

    @Test func printMShowsTheMetrics() async throws {
        let result = try await GannetBinary.run([
            "--print", "m", "--cacert", ca, servers.tlsEndpoint(.good).absoluteString + "small",
        ])
        #expect(result.status == 0, "\(result.err)")
        let output = lines(result.out)
        let names = output.compactMap { $0.split(separator: ":", maxSplits: 1).first.map(String.init) }
        #expect(
            Array(names.prefix(7)) == [
                "DNS lookup", "Connect", "TLS handshake", "First byte", "Total", "Reused connection", "Protocol",
            ],
            "\(result.out)"
        )
        #expect(output.contains("Protocol: HTTP/2"))
        #expect(output.contains("Reused connection: no"))
        #expect(!output.contains("TLS handshake: none"), "a TLS exchange has a handshake time")
        let total = try #require(output.first { $0.hasPrefix("Total: ") })
        let seconds = try #require(Double(total.dropFirst("Total: ".count).dropLast(2)))
        #expect(seconds > 0)
        #expect(!output.contains("ok"), "m alone prints no body")
    }

    @Test func doubleVerboseAddsTheMetricsAfterTheExchange() async throws {
        let result = try await GannetBinary.run(["-v", "-v", "\(httpbin)/get"])
        #expect(result.status == 0, "\(result.err)")
        let output = lines(result.out)
        #expect(output.first == "GET /get HTTP/1.1")
        #expect(output.contains("HTTP/1.1 200 OK"))
        let body = try #require(output.firstIndex { $0.contains("\"url\"") })
        let metrics = try #require(output.firstIndex { $0.hasPrefix("DNS lookup: ") })
        #expect(body < metrics)
        #expect(output.contains("TLS handshake: none"))
        #expect(output.contains("Protocol: HTTP/1.1"))
        #expect(
            !(try await GannetBinary.run(["-v", "\(httpbin)/get"])).out.contains("DNS lookup: "),
            "one -v: no metrics"
        )
        let short = try await GannetBinary.run(["-vv", "\(httpbin)/get"])
        #expect(short.out.contains("\nTotal: "))
    }

    // MARK: Colours

    @Test func noColorMeansNoEscapeCodesOnATerminal() async throws {
        let coloured = try await GannetBinary.runOnTerminal(["\(httpbin)/get", "a==1"])
        #expect(coloured.out.contains("\u{1B}["), "the control case: colours on a terminal")
        let plain = try await GannetBinary.runOnTerminal(["\(httpbin)/get", "a==1"], environment: ["NO_COLOR": "1"])
        #expect(plain.status == 0, "\(plain.out)")
        #expect(!plain.stdout.contains(0x1B), "\(plain.out.debugDescription)")
        #expect(plain.out.contains("HTTP/1.1 200 OK"))
        #expect(plain.out.contains("\n    \"args\": {"), "still formatted")
        let error = try await GannetBinary.runOnTerminal(["http://127.0.0.1:1/"], environment: ["NO_COLOR": "1"])
        #expect(error.status == 1)
        #expect(!error.stdout.contains(0x1B), "\(error.out.debugDescription)")
        #expect(error.out.hasPrefix("gannet: error: "))
        // An explicit --pretty beats the environment (no-color.org); an empty NO_COLOR is unset.
        let asked = try await GannetBinary.runOnTerminal(
            ["--pretty=all", "\(httpbin)/get"],
            environment: ["NO_COLOR": "1"]
        )
        #expect(asked.out.contains("\u{1B}[1;34m\"args\""))
        let empty = try await GannetBinary.runOnTerminal(["\(httpbin)/get"], environment: ["NO_COLOR": ""])
        #expect(empty.out.contains("\u{1B}["))
    }

    @Test func styleNoneMeansNoEscapeCodesAnywhere() async throws {
        let terminal = try await GannetBinary.runOnTerminal(["--style=none", "-v", "\(httpbin)/get"])
        #expect(terminal.status == 0)
        #expect(!terminal.stdout.contains(0x1B), "\(terminal.out.debugDescription)")
        #expect(terminal.out.contains("\n    \"url\": "))
        let forced = try await GannetBinary.run(["--style", "none", "--pretty=all", "\(httpbin)/get"])
        #expect(!forced.stdout.contains(0x1B))
        #expect(forced.out.contains("\n    \"url\": "))
        let warning = try await GannetBinary.runOnTerminal([
            "-s", "none", "--check-status", "-b", "\(httpbin)/status/404",
        ])
        #expect(warning.status == 4)
        #expect(!warning.stdout.contains(0x1B))
        #expect(try await GannetBinary.run(["--style=monokai", "\(httpbin)/get"]).status == 2)
    }
}
