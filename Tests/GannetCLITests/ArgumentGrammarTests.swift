import Foundation
import Testing

@testable import GannetCLI

/// httpie's item grammar and option syntax, parsed without a server.
@Suite("gannet argument grammar")
struct ArgumentGrammarTests {
    struct ItemCase: Sendable, CustomTestStringConvertible {
        let text: String
        let item: RequestItem
        var testDescription: String { text }
    }

    static let items: [ItemCase] = [
        ItemCase(text: "X-API-Key:abc", item: .header(name: "X-API-Key", value: "abc")),
        ItemCase(
            text: "Referer:http://example.com/a=b",
            item: .header(name: "Referer", value: "http://example.com/a=b")
        ),
        ItemCase(text: "User-Agent:", item: .removeHeader(name: "User-Agent")),
        ItemCase(text: "X-Empty;", item: .header(name: "X-Empty", value: "")),
        ItemCase(text: "q==gannet", item: .query(name: "q", value: "gannet")),
        ItemCase(text: "next==http://example.com/?a=b", item: .query(name: "next", value: "http://example.com/?a=b")),
        ItemCase(text: "name=Gannet", item: .dataString(name: "name", value: "Gannet")),
        ItemCase(text: "formula=a=b", item: .dataString(name: "formula", value: "a=b")),
        ItemCase(text: "empty=", item: .dataString(name: "empty", value: "")),
        ItemCase(text: "count:=3", item: .rawJSON(name: "count", json: "3")),
        ItemCase(text: #"tags:=["a","b"]"#, item: .rawJSON(name: "tags", json: #"["a","b"]"#)),
        ItemCase(text: "bio=@notes.txt", item: .dataStringFromFile(name: "bio", path: "notes.txt")),
        ItemCase(text: "meta:=@meta.json", item: .rawJSONFromFile(name: "meta", path: "meta.json")),
        ItemCase(text: "photo@gannet.jpg", item: .file(name: "photo", path: "gannet.jpg", mimeType: nil)),
        ItemCase(
            text: "data@table.csv;type=text/csv",
            item: .file(name: "data", path: "table.csv", mimeType: "text/csv")
        ),
        ItemCase(text: "email=me@example.com", item: .dataString(name: "email", value: "me@example.com")),
        // Escapes: a backslash makes a separator character part of the name or value.
        ItemCase(text: #"a\=b==c"#, item: .query(name: "a=b", value: "c")),
        ItemCase(text: #"key\:part=v"#, item: .dataString(name: "key:part", value: "v")),
        ItemCase(text: #"name=a\=b"#, item: .dataString(name: "name", value: "a=b")),
        ItemCase(text: #"user\@host=x"#, item: .dataString(name: "user@host", value: "x")),
        ItemCase(text: #"path=C:\dir"#, item: .dataString(name: "path", value: #"C:\dir"#)),
    ]

    @Test(arguments: items)
    func item(_ testCase: ItemCase) throws {
        #expect(try RequestItem.parse(testCase.text) == testCase.item)
    }

    @Test(arguments: ["plainword", "=value", "==x", ":=1", "@", "X;notempty"])
    func invalidItems(_ text: String) {
        #expect(throws: CLIError.self) { try RequestItem.parse(text) }
    }

    struct CommandCase: Sendable, CustomTestStringConvertible {
        let arguments: [String]
        let method: String
        let url: String
        let itemCount: Int
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let commands: [CommandCase] = [
        CommandCase(arguments: ["example.com"], method: "GET", url: "http://example.com", itemCount: 0),
        CommandCase(arguments: ["https://example.com/x"], method: "GET", url: "https://example.com/x", itemCount: 0),
        CommandCase(arguments: ["example.com", "a==1"], method: "GET", url: "http://example.com", itemCount: 1),
        CommandCase(arguments: ["example.com", "a=1"], method: "POST", url: "http://example.com", itemCount: 1),
        CommandCase(arguments: ["example.com", "f@x.txt"], method: "POST", url: "http://example.com", itemCount: 1),
        CommandCase(arguments: ["example.com", "X:1"], method: "GET", url: "http://example.com", itemCount: 1),
        CommandCase(arguments: ["PUT", "example.com", "a=1"], method: "PUT", url: "http://example.com", itemCount: 1),
        CommandCase(arguments: ["delete", "example.com"], method: "DELETE", url: "http://example.com", itemCount: 0),
        CommandCase(arguments: ["GET", "example.com", "a=1"], method: "GET", url: "http://example.com", itemCount: 1),
        CommandCase(
            arguments: ["PROPFIND", "example.com"],
            method: "PROPFIND",
            url: "http://example.com",
            itemCount: 0
        ),
        // httpie's false positive, avoided: a lower-case word that is not a method is the URL.
        CommandCase(arguments: ["localhost", "a==1"], method: "GET", url: "http://localhost", itemCount: 1),
        CommandCase(arguments: [":3000/get"], method: "GET", url: "http://localhost:3000/get", itemCount: 0),
        CommandCase(arguments: [":/get"], method: "GET", url: "http://localhost/get", itemCount: 0),
        CommandCase(arguments: [":"], method: "GET", url: "http://localhost", itemCount: 0),
        CommandCase(
            arguments: ["127.0.0.1:8080/post", "a=1"],
            method: "POST",
            url: "http://127.0.0.1:8080/post",
            itemCount: 1
        ),
        CommandCase(
            arguments: ["-v", "example.com", "--form", "a=1", "-F"],
            method: "POST",
            url: "http://example.com",
            itemCount: 1
        ),
        CommandCase(
            arguments: ["example.com", "--", "-weird==1"],
            method: "GET",
            url: "http://example.com",
            itemCount: 1
        ),
    ]

    @Test(arguments: commands)
    func command(_ testCase: CommandCase) throws {
        guard case .request(let invocation) = try Command.parse(testCase.arguments) else {
            Issue.record("not a request")
            return
        }
        #expect(invocation.method == testCase.method)
        #expect(invocation.url.absoluteString == testCase.url)
        #expect(invocation.items.count == testCase.itemCount)
    }

    @Test func options() throws {
        let (options, positionals) = try ArgumentParser.parse([
            "-vF", "--timeout=2.5", "-o", "out.bin", "--max-redirects", "4", "--pin", "sha256/a", "--pin=sha256/b",
            "--as", "json", "--check-status", "-aalice:secret", "--pretty", "format", "url", "--form",
        ])
        #expect(positionals == ["url"])
        #expect(options.verbose && options.follow && options.checkStatus)
        #expect(options.timeout == 2.5)
        #expect(options.output == "out.bin")
        #expect(options.maxRedirects == 4)
        #expect(options.tls.pins == ["sha256/a", "sha256/b"])
        #expect(options.interpretation == .json)
        #expect(options.auth == "alice:secret")
        #expect(options.pretty == .format)
        #expect(options.bodyMode == .form)
    }

    @Test(arguments: [
        ["--bogus", "url"], ["-Z", "url"], ["--timeout"], ["--timeout", "zero", "url"], ["--timeout=-1", "url"],
        ["--as", "yaml", "url"], ["--pretty=loud", "url"], ["--form=yes", "url"], ["--auth", "", "url"],
        ["--auth-type", "kerberos", "url"],
        ["--print", "Hx", "url"], ["--max-redirects", "-3", "url"], ["--pinning-mode", "leaf", "url"],
        ["pins"], ["pins", "a", "b"], ["GET", "ftp://example.com/"], ["GET", "http://"],
    ])
    func usageErrors(_ arguments: [String]) {
        #expect { try Command.parse(arguments) } throws: { ($0 as? CLIError)?.status == .usage }
    }

    @Test func helpVersionAndPins() throws {
        #expect(try Command.parse([]) == .help)
        #expect(try Command.parse(["--help"]) == .help)
        #expect(try Command.parse(["--version"]) == .version)
        guard case .pins(let target, _) = try Command.parse(["pins", "cert.pem"]) else {
            Issue.record("not pins")
            return
        }
        #expect(target == "cert.pem")
    }

    @Test func printSelectionFollowsHttpie() throws {
        var options = Options()
        let piped = options.printSelection(stdoutIsTerminal: false)
        #expect(!piped.responseHeaders && piped.responseBody && !piped.requestHeaders)
        let terminal = options.printSelection(stdoutIsTerminal: true)
        #expect(terminal.responseHeaders && terminal.responseBody)
        options.verbose = true
        let verbose = options.printSelection(stdoutIsTerminal: false)
        #expect(verbose.requestHeaders && verbose.requestBody && verbose.responseHeaders && verbose.responseBody)
        options = Options()
        options.headersOnly = true
        #expect(options.printSelection(stdoutIsTerminal: true) == (try Options.PrintSelection(letters: "h")))
        options.print = try Options.PrintSelection(letters: "Hb")
        #expect(options.printSelection(stdoutIsTerminal: true) == (try Options.PrintSelection(letters: "Hb")))
        #expect(Options().prettiness(stdoutIsTerminal: true) == .all)
        #expect(Options().prettiness(stdoutIsTerminal: false) == .none)
    }

    @Test func helpListsEveryOption() {
        let help = HelpText.text
        for option in OptionTable.all {
            #expect(help.contains("--" + option.long), "--\(option.long) missing from --help")
        }
    }
}
