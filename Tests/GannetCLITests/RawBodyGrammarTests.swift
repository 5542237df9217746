import Foundation
import Testing

@testable import GannetCLI

/// Where the body comes from, decided when the command line is parsed: stdin's kind is given,
/// so every rule is checked without a process.
@Suite("gannet raw body grammar")
struct RawBodyGrammarTests {
    func invocation(_ arguments: [String], stdin: StandardInput.Kind = .none) throws -> Invocation {
        guard case .request(let invocation) = try Command.parse(arguments, stdin: stdin) else {
            throw CLIError("not a request: \(arguments)")
        }
        return invocation
    }

    func usageError(_ arguments: [String], stdin: StandardInput.Kind = .none) -> String? {
        do {
            _ = try invocation(arguments, stdin: stdin)
            return nil
        } catch let error as CLIError {
            return error.status == .usage ? error.message : nil
        } catch {
            return nil
        }
    }

    @Test func stdinIsTheBodyOfAPostUnlessIgnored() throws {
        for kind in [StandardInput.Kind.pipe, .file] {
            let piped = try invocation(["example.com"], stdin: kind)
            #expect(piped.body == .stdin && piped.method == "POST" && !piped.methodIsExplicit)
        }
        let put = try invocation(["PUT", "example.com"], stdin: .pipe)
        #expect(put.body == .stdin && put.method == "PUT" && put.methodIsExplicit)
        let ignored = try invocation(["-I", "example.com"], stdin: .pipe)
        #expect(ignored.body == nil && ignored.method == "GET")
        #expect(try invocation(["example.com"]).body == nil, "a terminal or /dev/null is no body")
        #expect(
            try invocation(["example.com", "q==1", "X-A:b"], stdin: .pipe).body == .stdin,
            "queries and headers are not the body"
        )
    }

    @Test func rawAndAtFile() throws {
        let raw = try invocation(["--raw", "{}", "example.com"])
        #expect(raw.body == .text("{}") && raw.method == "POST")
        let file = try invocation(["example.com", "@body.json", "X-A:b"])
        #expect(file.body == .file("body.json") && file.method == "POST")
        #expect(file.items.contains(.bodyFile(path: "body.json")))
        #expect(try RequestItem.parse(#"\@literal=x"#) == .dataString(name: "@literal", value: "x"))
    }

    @Test(
        arguments: [
            (["example.com", "a=1"], StandardInput.Kind.pipe, "--ignore-stdin"),
            (["--raw", "x", "example.com"], .file, "--raw and stdin"),
            (["example.com", "@a", "@b"], .none, "@a and @b"),
            (["--raw", "x", "example.com", "n:=1"], .none, "data items"),
            (["--multipart", "--raw", "x", "example.com"], .none, "--multipart"),
            (["--form", "example.com", "@a.txt"], .none, "name@FILE"),
            (["HEAD", "example.com"], .pipe, "HEAD"),
        ] as [([String], StandardInput.Kind, String)]
    )
    func clashesAreUsageErrors(_ arguments: [String], _ stdin: StandardInput.Kind, _ mention: String) {
        let message = usageError(arguments, stdin: stdin)
        #expect(message?.contains(mention) == true, "\(message ?? "no usage error")")
    }

    @Test func networkAndOutputOptions() throws {
        let (options, _) = try ArgumentParser.parse([
            "--proxy", "http:http://p:1", "--proxy=socks5h://s:2", "--max-time", "2.5", "--verify=no", "-vv",
            "--style=none",
            "--cert-key-pass", "pw",
        ])
        #expect(options.proxies.map(\.scheme) == ["http", nil])
        #expect(options.proxies.map(\.url.absoluteString) == ["http://p:1", "socks5h://s:2"])
        #expect(Options.Proxy.choose(options.proxies, for: URL(string: "http://x/")!)?.url.host == "p")
        #expect(Options.Proxy.choose(options.proxies, for: URL(string: "https://x/")!)?.url.host == "s")
        #expect(options.maxTime == 2.5)
        #expect(options.tls.allowInvalidCertificates && !options.tls.validatesDomainName)
        #expect(options.verbosity == 2 && options.printSelection(stdoutIsTerminal: false).metrics)
        #expect(options.tls.keyPassword == "pw")
        #expect(options.prettiness(stdoutIsTerminal: true) == .format)
        #expect(try Options.PrintSelection(letters: "hm").metrics)
        #expect(throws: CLIError.self) { try ArgumentParser.parse(["--proxy", "http:a", "--proxy", "http:b"]) }
    }

    @Test func noColorTakesColoursFromTheDefaultOnly() throws {
        #expect(Options().prettiness(stdoutIsTerminal: true, noColor: true) == .format)
        #expect(Options().prettiness(stdoutIsTerminal: false, noColor: true) == .none)
        var explicit = Options()
        explicit.pretty = .all
        #expect(explicit.prettiness(stdoutIsTerminal: true, noColor: true) == .all)
        explicit.style = Options.Style.none
        #expect(explicit.prettiness(stdoutIsTerminal: true, noColor: false) == .format)
        let terminal = Terminal(stdoutIsTerminal: true, stderrIsTerminal: true, noColor: true)
        #expect(!Options().colorsDiagnostics(on: terminal))
        #expect(Options().colorsDiagnostics(on: Terminal(stdoutIsTerminal: true, stderrIsTerminal: true)))
    }
}
