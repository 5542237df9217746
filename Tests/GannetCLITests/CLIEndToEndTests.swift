import Foundation
import GannetTestSupport
import Testing

/// The built `gannet` binary against the local httpbin: what the command line sends is what
/// httpbin echoes back.
@Suite("gannet end to end")
struct CLIEndToEndTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    func section(_ echo: [String: Any], _ name: String) -> [String: Any] {
        echo[name] as? [String: Any] ?? [:]
    }

    // MARK: Grammar → what httpbin received

    @Test func queryItemsAndDefaultGet() async throws {
        let result = try await GannetBinary.run(["\(httpbin)/get", "q==gannet", "tag==a", "tag==b", #"a\=b==c d"#])
        #expect(result.status == 0, "\(result.err)")
        let echo = try result.json()
        #expect(section(echo, "args")["q"] as? String == "gannet")
        #expect(section(echo, "args")["tag"] as? [String] == ["a", "b"])
        #expect(section(echo, "args")["a=b"] as? String == "c d")
        #expect(section(echo, "headers")["User-Agent"] as? String == "gannet/0.1.0")
    }

    @Test func headerItemsReplaceDefaultsAndAdd() async throws {
        let result = try await GannetBinary.run([
            "\(httpbin)/headers", "X-Custom:hello", "User-Agent:bird/1", "Accept:text/plain",
        ])
        #expect(result.status == 0, "\(result.err)")
        let headers = section(try result.json(), "headers")
        #expect(headers["X-Custom"] as? String == "hello")
        #expect(headers["User-Agent"] as? String == "bird/1")
        #expect(headers["Accept"] as? String == "text/plain")
    }

    @Test func dataItemsMakeAJSONPost() async throws {
        let result = try await GannetBinary.run([
            "\(httpbin)/post", "name=Gannet", "dives:=3", "ok:=true", #"tags:=["a","b"]"#, #"nested:={"k":null}"#,
            "name2=x=y",
        ])
        #expect(result.status == 0, "\(result.err)")
        let echo = try result.json()
        #expect(section(echo, "headers")["Content-Type"] as? String == "application/json")
        #expect(section(echo, "headers")["Accept"] as? String == "application/json, */*;q=0.5")
        let json = section(echo, "json")
        #expect(json["name"] as? String == "Gannet")
        #expect(json["dives"] as? Int == 3)
        #expect(json["ok"] as? Bool == true)
        #expect(json["tags"] as? [String] == ["a", "b"])
        #expect((json["nested"] as? [String: Any])?["k"] is NSNull)
        #expect(json["name2"] as? String == "x=y")
    }

    @Test func explicitMethodsAndLowerCase() async throws {
        for method in ["PUT", "patch", "DELETE"] {
            let path = method.lowercased()
            let result = try await GannetBinary.run([method, "\(httpbin)/\(path)", "k=v"])
            #expect(result.status == 0, "\(method): \(result.err)")
            #expect(section(try result.json(), "json")["k"] as? String == "v", "\(method)")
        }
        let get = try await GannetBinary.run(["GET", "\(httpbin)/anything", "k=v"])
        let echo = try get.json()
        #expect(echo["method"] as? String == "GET")
        #expect(section(echo, "json")["k"] as? String == "v", "httpie sends data items in a GET body too")
    }

    @Test func formItems() async throws {
        let result = try await GannetBinary.run(["--form", "\(httpbin)/post", "a=1", "a=2", "b=x y"])
        #expect(result.status == 0, "\(result.err)")
        let echo = try result.json()
        #expect(section(echo, "form")["a"] as? [String] == ["1", "2"])
        #expect(section(echo, "form")["b"] as? String == "x y")
        #expect(
            section(echo, "headers")["Content-Type"] as? String == "application/x-www-form-urlencoded; charset=utf-8"
        )
    }

    @Test func fileItemsMakeAMultipartForm() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("gannet notes\n".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try Data(#"{"from":"file"}"#.utf8).write(to: folder.appendingPathComponent("meta.json"))
        let result = try await GannetBinary.run(
            ["-f", "POST", "\(httpbin)/post", "doc@notes.txt", "caption=A dive", "bio=@notes.txt"],
            in: folder
        )
        #expect(result.status == 0, "\(result.err)")
        let echo = try result.json()
        #expect(section(echo, "files")["doc"] as? String == "gannet notes\n")
        #expect(section(echo, "form")["caption"] as? String == "A dive")
        #expect(section(echo, "form")["bio"] as? String == "gannet notes\n")
        #expect(
            (section(echo, "headers")["Content-Type"] as? String)?.hasPrefix("multipart/form-data; boundary=") == true
        )

        let json = try await GannetBinary.run(["\(httpbin)/post", "meta:=@meta.json", "bio=@notes.txt"], in: folder)
        let body = section(try json.json(), "json")
        #expect((body["meta"] as? [String: Any])?["from"] as? String == "file")
        #expect(body["bio"] as? String == "gannet notes\n")
    }

    @Test func multipartWithoutFiles() async throws {
        let result = try await GannetBinary.run(["--multipart", "\(httpbin)/post", "a=1"])
        let echo = try result.json()
        #expect(section(echo, "form")["a"] as? String == "1")
        #expect((section(echo, "headers")["Content-Type"] as? String)?.hasPrefix("multipart/form-data") == true)
    }

    @Test func basicAuth() async throws {
        let good = try await GannetBinary.run([
            "--auth", "user:pass", "--check-status", "\(httpbin)/basic-auth/user/pass",
        ])
        #expect(good.status == 0)
        #expect(try good.json()["authenticated"] as? Bool == true)
        let bad = try await GannetBinary.run(["-a", "user:wrong", "--check-status", "\(httpbin)/basic-auth/user/pass"])
        #expect(bad.status == 4)
    }

    @Test func localhostShorthand() async throws {
        let port = try #require(servers.httpbin.port)
        let result = try await GannetBinary.run([":\(port)/get", "via==shorthand"])
        #expect(result.status == 0, "\(result.err)")
        #expect(section(try result.json(), "args")["via"] as? String == "shorthand")
    }

    // MARK: Exit codes

    @Test(arguments: [(200, Int32(0)), (301, 3), (404, 4), (418, 4), (500, 5), (503, 5)])
    func checkStatus(_ code: Int, _ expected: Int32) async throws {
        let result = try await GannetBinary.run(["--check-status", "\(httpbin)/status/\(code)"])
        #expect(result.status == expected)
        if expected != 0 {
            #expect(result.err.contains("gannet: warning: HTTP \(code)"))
        }
    }

    @Test func withoutCheckStatusAnErrorStatusExitsZero() async throws {
        #expect(try await GannetBinary.run(["\(httpbin)/status/500"]).status == 0)
    }

    @Test func redirectsAreNotFollowedUnlessAsked() async throws {
        let stay = try await GannetBinary.run(["-h", "\(httpbin)/redirect/1"])
        #expect(stay.status == 0)
        #expect(stay.out.hasPrefix("HTTP/1.1 302 FOUND"), "the server's own reason phrase (werkzeug's capitals)")
        let follow = try await GannetBinary.run(["--follow", "--check-status", "\(httpbin)/redirect/2"])
        #expect(follow.status == 0)
        #expect((try follow.json()["url"] as? String)?.hasSuffix("/get") == true)
        let tooMany = try await GannetBinary.run(["--follow", "--max-redirects", "2", "\(httpbin)/redirect/5"])
        #expect(tooMany.status == 6)
        #expect(tooMany.err.hasPrefix("gannet: error: "))
    }

    @Test func timeoutExitsWithTwo() async throws {
        let result = try await GannetBinary.run(["--timeout", "0.5", "\(httpbin)/delay/5"])
        #expect(result.status == 2)
        #expect(result.err.hasPrefix("gannet: error: "))
        #expect(result.err.contains("timed out"))
    }

    @Test func connectionErrorsAreOneLineWithExitOne() async throws {
        let result = try await GannetBinary.run(["http://127.0.0.1:1/"])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("gannet: error: "))
        #expect(result.err.split(separator: "\n").count == 1)
        #expect(result.out.isEmpty)
    }

    @Test(arguments: [
        ["--nope", "http://x"], ["ftp://example.com"], ["--timeout", "x", "http://x"], ["http://x", "bad item"],
    ])
    func usageErrorsExitWithTwo(_ arguments: [String]) async throws {
        let result = try await GannetBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.err.hasPrefix("gannet: error: "))
    }

    @Test func fileFieldsWithoutFormAreRefused() async throws {
        let result = try await GannetBinary.run(["\(httpbin)/post", "f@/etc/hostname"])
        #expect(result.status == 2)
        #expect(result.err.contains("--form"))
    }

    @Test func missingUploadFileIsAnError() async throws {
        let result = try await GannetBinary.run(["-f", "\(httpbin)/post", "f@/nonexistent/gannet-file"])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("gannet: error: "))
    }

    // MARK: Output modes

    @Test func pipedOutputIsTheBodyOnlyAndPlain() async throws {
        let result = try await GannetBinary.run(["\(httpbin)/get"])
        #expect(!result.out.contains("\u{1B}["))
        #expect(!result.out.contains("HTTP/1.1"))
        #expect(result.out.hasPrefix("{"))
        #expect(result.stdout == (try await GannetBinary.run(["--pretty=none", "\(httpbin)/get"]).stdout))
    }

    @Test func headersOnly() async throws {
        let result = try await GannetBinary.run(["--headers", "\(httpbin)/get"])
        let lines = result.out.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "HTTP/1.1 200 OK")
        #expect(lines.contains("Content-Type: application/json"))
        #expect(!result.out.contains("\"url\""))
    }

    @Test func verbosePrintsTheRequestFirst() async throws {
        let result = try await GannetBinary.run(["-v", "POST", "\(httpbin)/post", "a=1", "q==2"])
        let text = result.out
        #expect(text.hasPrefix("POST /post?q=2 HTTP/1.1\n"))
        #expect(text.contains("Content-Type: application/json\n"))
        #expect(text.contains(#"{"a":"1"}"#))
        let requestEnd = try #require(text.range(of: "HTTP/1.1 200 OK"))
        #expect(text[requestEnd.upperBound...].contains("\"url\""))
    }

    @Test func prettyAllColoursAndIndentsWhenAsked() async throws {
        let result = try await GannetBinary.run(["--pretty=all", "\(httpbin)/get", "a==1"])
        #expect(result.out.contains("\u{1B}[1;34m\"args\"\u{1B}[0m: {"))
        #expect(result.out.contains("\n    \u{1B}[1;34m\"args\"") || result.out.contains("\n        \u{1B}[1;34m\"a\""))
        let format = try await GannetBinary.run(["--pretty=format", "\(httpbin)/get", "a==1"])
        #expect(!format.out.contains("\u{1B}["))
        #expect(format.out.contains("\n    \"args\": {\n        \"a\": \"1\"\n    },"))
    }

    @Test func terminalOutputIsPrettyWithHeaders() async throws {
        let result = try await GannetBinary.runOnTerminal(["\(httpbin)/get", "a==1"])
        #expect(result.status == 0, "\(result.out)")
        #expect(result.out.contains("HTTP/1.1 \u{1B}[1;32m200 OK\u{1B}[0m"))
        #expect(result.out.contains("\u{1B}[1;34m\"args\"\u{1B}[0m"))
    }

    @Test func binaryBodyIsNotShownOnATerminalButIsPiped() async throws {
        let terminal = try await GannetBinary.runOnTerminal(["-b", "\(httpbin)/bytes/64?seed=1"])
        #expect(terminal.out.contains("NOTE: binary data not shown in terminal"))
        let piped = try await GannetBinary.run(["\(httpbin)/bytes/4096"])
        #expect(piped.stdout.count == 4096)
    }

    @Test func asJSONValidatesWithTheSerializer() async throws {
        let good = try await GannetBinary.run(["--as", "json", "--pretty=format", "\(httpbin)/get"])
        #expect(good.status == 0)
        #expect(good.out.hasPrefix("{\n    \""))
        let bad = try await GannetBinary.run(["--as", "json", "\(httpbin)/html"])
        #expect(bad.status == 1)
        #expect(bad.err.hasPrefix("gannet: error: "))
    }

    @Test func xmlIsFormattedByContentTypeAndByTheXMLSerializer() async throws {
        let pretty = try await GannetBinary.run(["--pretty=format", "\(httpbin)/xml"])
        #expect(pretty.out.contains("\n    <title>Wake up to WonderWidgets!</title>\n"))
        let serializer = try await GannetBinary.run(["--as", "xml", "--pretty=format", "\(httpbin)/xml"])
        #expect(serializer.stdout == pretty.stdout)
        let raw = try await GannetBinary.run(["--as", "xml", "\(httpbin)/xml"])
        #expect(raw.status == 0)
        #expect(raw.out.hasPrefix("<?xml version='1.0' encoding='us-ascii'?>\n\n<!--  A SAMPLE set of slides  -->"))
        let refused = try await GannetBinary.run(["--as", "xml", "\(httpbin)/json"])
        #expect(refused.status == 1)
        #expect(refused.err.hasPrefix("gannet: error: XML parsing failed"))
    }

    @Test func asStringAndData() async throws {
        let text = try await GannetBinary.run(["--as", "string", "\(httpbin)/encoding/utf8"])
        #expect(text.status == 0)
        #expect(text.out.contains("∮ E⋅da = Q"))
        let data = try await GannetBinary.run(["--as", "data", "\(httpbin)/bytes/300"])
        #expect(data.stdout.count == 300)
    }

    @Test func helpAndVersion() async throws {
        let help = try await GannetBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.out.contains("gannet [METHOD] URL [ITEM ...]"))
        let version = try await GannetBinary.run(["--version"])
        let lines = version.out.split(separator: "\n").map(String.init)
        #expect(lines.first == "gannet 0.1.0")
        // The libraries loaded at run time, by name, with libcurl's features (issue 28).
        for prefix in ["libcurl 7.", "OpenSSL 3.", "nghttp2 1.", "libxml2 2.", "Features: "] {
            #expect(lines.contains { $0.hasPrefix(prefix) }, "no \(prefix) line in \(version.out)")
        }
        #expect(lines.contains { $0.hasPrefix("Features: ") && $0.contains("HTTP2") && $0.contains("UnixSockets") })
    }

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// `--download`, `--output` and the streamed stdout path.
@Suite("gannet downloads")
struct CLIDownloadTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-dl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func downloadNamesTheFileAfterTheURLAndNeverOverwrites() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try Data(contentsOf: URL(fileURLWithPath: servers.oneMegabyteFile))
        let first = try await GannetBinary.run(["--download", "\(nginx)/files/1m.bin"], in: folder)
        #expect(first.status == 0, "\(first.err)")
        #expect(first.stdout.isEmpty, "the body goes to the file, not stdout")
        #expect(first.err.contains("HTTP/1.1 200 OK"))
        #expect(first.err.contains("Saved 1.0 MB"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("1m.bin")) == expected)
        let second = try await GannetBinary.run(["-d", "\(nginx)/files/1m.bin"], in: folder)
        #expect(second.status == 0)
        #expect(try Data(contentsOf: folder.appendingPathComponent("1m-1.bin")) == expected)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("1m.bin").path)
        #expect((attributes[.posixPermissions] as? Int).map { $0 & 0o044 } != 0, "readable like a file the shell made")
    }

    @Test func downloadWithOutputWritesThatFile() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await GannetBinary.run(
            ["--download", "--output", "big.bin", "\(nginx)/files/10m.bin"],
            in: folder
        )
        #expect(result.status == 0, "\(result.err)")
        #expect(
            FileManager.default.contentsEqual(
                atPath: folder.appendingPathComponent("big.bin").path,
                andPath: servers.tenMegabyteFile
            )
        )
    }

    @Test func downloadNameComesFromContentDispositionWithoutPathParts() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await GannetBinary.run(
            ["-d", "\(httpbin)/response-headers", #"Content-Disposition==attachment; filename="../../report.json""#],
            in: folder
        )
        #expect(result.status == 0, "\(result.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names == ["report.json"])
        #expect(
            !FileManager.default.fileExists(
                atPath: folder.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                    "report.json"
                ).path
            )
        )
    }

    @Test func failedDownloadSavesNothingAndExitsWithTheStatusClass() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await GannetBinary.run(["-d", "\(httpbin)/status/404"], in: folder)
        #expect(result.status == 4)
        #expect(result.err.contains("gannet: error: HTTP 404"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func outputAloneSavesTheBodyWhateverTheStatus() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await GannetBinary.run(
            ["-o", "page.html", "--check-status", "\(httpbin)/status/418"],
            in: folder
        )
        #expect(result.status == 4)
        #expect(try String(contentsOf: folder.appendingPathComponent("page.html"), encoding: .utf8).contains("teapot"))
        #expect(result.stdout.isEmpty)
    }

    @Test func connectionErrorDuringDownloadLeavesNoFile() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await GannetBinary.run(["-d", "-o", "partial.bin", "\(fault)/reset"], in: folder)
        #expect(result.status == 1)
        #expect(result.err.contains("gannet: error: "))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func ctrlCCancelsADownloadAndLeavesNoFile() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The download's temporary file appears once the response head is in: the request is
        // under way, so Ctrl-C must cancel it (the temporary folder is the child's own).
        let scratch = try self.folder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        // The fault server sends 1 KiB of the body and holds the rest, never released
        // (Tests/Servers/held_routes.py): no machine speed finishes the download first.
        let (source, _) = try servers.heldFile(bytes: 64 << 10)
        defer { try? FileManager.default.removeItem(at: source) }
        let held = servers.url(.heldFile(key: UUID().uuidString, file: source, prefix: 1 << 10)).absoluteString
        let result = try await GannetBinary.runInterrupted(
            ["-d", "-o", "slow.bin", held],
            in: folder,
            environment: ["TMPDIR": scratch.path]
        ) { _ in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
            return names.contains { $0.hasPrefix("gannet-download-") }
        }
        #expect(result.status == 130)
        #expect(
            ((try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []).isEmpty,
            "the partial file must be removed"
        )
        #expect(result.err.contains("gannet: interrupted"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func ctrlCStopsAStreamedBody() async throws {
        // 100 bytes of the body, then the rest held until the connection closes
        // (Tests/Servers/held_routes.py): only Ctrl-C ends the run, however fast the machine.
        // Interrupted once the first body byte is out: the body is streaming.
        let (source, _) = try servers.heldFile(bytes: 600)
        defer { try? FileManager.default.removeItem(at: source) }
        let held = servers.url(.heldFile(key: UUID().uuidString, file: source, prefix: 100)).absoluteString
        let result = try await GannetBinary.runInterrupted([held]) { !$0.isEmpty }
        #expect(result.status == 130)
        #expect(result.stdout.count <= 100)
    }

    @Test func pipedBodyIsStreamedByteForByte() async throws {
        let result = try await GannetBinary.run(["\(nginx)/files/10m.bin"])
        #expect(result.status == 0)
        #expect(result.stdout == (try Data(contentsOf: URL(fileURLWithPath: servers.tenMegabyteFile))))
    }
}
