import Foundation
import GannetTestSupport
import Testing

/// httpie's raw bodies: piped or redirected stdin, `--raw`, `@FILE`, and stdin never silently
/// ignored. httpbin echoes what it received; the fault server's `/echo` shows the request head
/// as sent and the body's length and SHA-256.
@Suite("gannet raw bodies")
struct CLIRawBodyTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    func section(_ echo: [String: Any], _ name: String) -> [String: Any] {
        echo[name] as? [String: Any] ?? [:]
    }

    /// Deterministic, not all one byte, so a shifted or repeated chunk changes the digest.
    static func sample(count: Int) -> Data {
        var state: UInt32 = 0x9E37_79B9
        return Data(
            (0..<count).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
        )
    }

    /// `sha256sum`'s digest of `data`, as the fault server reports it.
    static func sha256(_ data: Data) async throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-sha-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await GannetBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/sha256sum"),
            arguments: [file.path],
            in: nil,
            timeout: .seconds(60)
        )
        try #require(result.status == 0, "sha256sum: \(result.err)")
        return String(result.out.prefix { $0 != " " })
    }

    /// The `/echo` body split into the request head's lines and the digest lines.
    func echoed(_ result: GannetBinary.Result) -> (head: [String], length: Int?, sha256: String?) {
        // "\r\n" is one Character in Swift: split on it first.
        let lines = result.out.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n")
        let length = lines.first { $0.hasPrefix("body-length: ") }.flatMap { Int($0.dropFirst("body-length: ".count)) }
        let sha = lines.first { $0.hasPrefix("body-sha256: ") }.map { String($0.dropFirst("body-sha256: ".count)) }
        return (lines, length, sha)
    }

    // MARK: stdin

    @Test func pipedJSONIsTheBodyOfAPost() async throws {
        let result = try await GannetBinary.run(["\(httpbin)/post"], stdin: .pipe(Data(#"{"a":1}"#.utf8 + [0x0A])))
        #expect(result.status == 0, "\(result.err)")
        let echo = try result.json()
        #expect(section(echo, "json")["a"] as? Int == 1)
        #expect(echo["data"] as? String == "{\"a\":1}\n", "sent byte for byte")
        #expect(section(echo, "headers")["Content-Type"] as? String == "application/json")
        #expect(section(echo, "headers")["Accept"] as? String == "application/json, */*;q=0.5")
        #expect(section(echo, "headers")["Content-Length"] as? String == "8")
    }

    @Test func explicitMethodAndFormWithStdin() async throws {
        let put = try await GannetBinary.run(["PUT", "\(httpbin)/put"], stdin: .pipe(Data(#"{"b":[1,2]}"#.utf8)))
        #expect(section(try put.json(), "json")["b"] as? [Int] == [1, 2])
        let form = try await GannetBinary.run(["--form", "\(httpbin)/post"], stdin: .file(Data("x=1&y=two".utf8)))
        let echo = try form.json()
        #expect(section(echo, "form")["y"] as? String == "two")
        #expect(
            section(echo, "headers")["Content-Type"] as? String == "application/x-www-form-urlencoded; charset=utf-8"
        )
    }

    @Test func largePipedStdinIsStreamedChunked() async throws {
        let data = Self.sample(count: 3 * 1024 * 1024 + 17)
        let result = try await GannetBinary.run(["\(fault)/echo"], stdin: .pipe(data))
        #expect(result.status == 0, "\(result.err)")
        let echo = echoed(result)
        #expect(echo.head.first == "POST /echo HTTP/1.1")
        #expect(
            echo.head.contains { $0.lowercased() == "transfer-encoding: chunked" },
            "a pipe's length is unknown: \(echo.head.prefix(12))"
        )
        #expect(echo.length == data.count)
        let digest = try await Self.sha256(data)
        #expect(echo.sha256 == digest)
    }

    @Test func largeRedirectedFileIsStreamedWithItsLength() async throws {
        let data = Self.sample(count: 1024 * 1024 + 5)
        let result = try await GannetBinary.run(["\(fault)/echo"], stdin: .file(data))
        #expect(result.status == 0, "\(result.err)")
        let echo = echoed(result)
        #expect(echo.head.contains("Content-Length: \(data.count)"), "\(echo.head.prefix(12))")
        #expect(echo.length == data.count)
        let digest = try await Self.sha256(data)
        #expect(echo.sha256 == digest)
    }

    @Test func stdinThatEndsAtOnceIsNoBody() async throws {
        let result = try await GannetBinary.run(["\(httpbin)/anything"], stdin: .pipe(Data()))
        #expect(result.status == 0, "\(result.err)")
        #expect(try result.json()["method"] as? String == "GET")
    }

    @Test func stdinIsNeverSilentlyIgnored() async throws {
        let mixed = try await GannetBinary.run(["\(httpbin)/post", "a=1"], stdin: .pipe(Data("ignored?".utf8)))
        #expect(mixed.status == 2)
        #expect(mixed.err.hasPrefix("gannet: error: the body comes from stdin"))
        #expect(mixed.err.contains("--ignore-stdin"))
        #expect(mixed.stdout.isEmpty)
        let withRaw = try await GannetBinary.run(["--raw", "x", "\(httpbin)/post"], stdin: .file(Data("y".utf8)))
        #expect(withRaw.status == 2)
        #expect(withRaw.err.contains("--raw and stdin"))

        // Told to, gannet sends the items and leaves stdin alone.
        let ignored = try await GannetBinary.run(
            ["--ignore-stdin", "\(httpbin)/post", "a=1"],
            stdin: .pipe(Data("not the body".utf8))
        )
        #expect(ignored.status == 0, "\(ignored.err)")
        let echo = try ignored.json()
        #expect(section(echo, "json")["a"] as? String == "1")
        #expect(echo["data"] as? String == #"{"a":"1"}"#)
        let short = try await GannetBinary.run(["-I", "\(httpbin)/get"], stdin: .pipe(Data("x".utf8)))
        #expect(try short.json()["url"] as? String == "\(httpbin)/get")
    }

    // MARK: --raw and @FILE

    @Test func rawOptionIsTheBody() async throws {
        let json = try await GannetBinary.run(["--raw", #"{"k":[true,null]}"#, "\(httpbin)/post"])
        #expect(json.status == 0, "\(json.err)")
        let echo = try json.json()
        #expect(echo["data"] as? String == #"{"k":[true,null]}"#)
        #expect(section(echo, "headers")["Content-Type"] as? String == "application/json")
        let typed = try await GannetBinary.run([
            "--raw", "plain words", "PUT", "\(httpbin)/put", "Content-Type:text/plain",
        ])
        let typedEcho = try typed.json()
        #expect(typedEcho["data"] as? String == "plain words")
        #expect(section(typedEcho, "headers")["Content-Type"] as? String == "text/plain")
    }

    @Test func atFileIsTheBodyTypedByItsExtension() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"from":"file"}"#.utf8).write(to: folder.appendingPathComponent("body.json"))
        try Data("<a>1</a>".utf8).write(to: folder.appendingPathComponent("doc.xml"))
        try Data("raw bytes".utf8).write(to: folder.appendingPathComponent("blob.unknownext"))

        let json = try await GannetBinary.run(["\(httpbin)/post", "@body.json"], in: folder)
        #expect(json.status == 0, "\(json.err)")
        let echo = try json.json()
        #expect(section(echo, "json")["from"] as? String == "file")
        #expect(section(echo, "headers")["Content-Type"] as? String == "application/json")
        #expect(section(echo, "headers")["Content-Length"] as? String == "15")

        let xml = try await GannetBinary.run(["PUT", "\(httpbin)/put", "@doc.xml"], in: folder)
        #expect(section(try xml.json(), "headers")["Content-Type"] as? String == "application/xml")

        // An extension the table does not know: no Content-Type at all, rather than a guess.
        let unknown = try await GannetBinary.run(["\(fault)/echo", "@blob.unknownext"], in: folder)
        let head = echoed(unknown).head
        #expect(head.first == "POST /echo HTTP/1.1")
        #expect(!head.contains { $0.lowercased().hasPrefix("content-type:") }, "\(head.prefix(10))")
        #expect(echoed(unknown).length == 9)
    }

    @Test(arguments: [
        ["URL", "@a.json", "@b.json"], ["URL", "@a.json", "x=1"], ["--raw", "x", "URL", "@a.json"],
        ["--raw", "x", "URL", "k:=1"],
        ["--form", "URL", "@a.json"], ["--multipart", "--raw", "x", "URL"], ["URL", "@"],
    ])
    func bodySourcesThatClashAreUsageErrors(_ arguments: [String]) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a.json", "b.json"] { try Data("{}".utf8).write(to: folder.appendingPathComponent(name)) }
        let result = try await GannetBinary.run(arguments.map { $0 == "URL" ? "\(httpbin)/post" : $0 }, in: folder)
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.hasPrefix("gannet: error: "))
    }

    @Test func missingAtFileIsAnError() async throws {
        let result = try await GannetBinary.run(["\(httpbin)/post", "@/nonexistent/gannet-body.json"])
        #expect(result.status == 1)
        #expect(result.err.hasPrefix("gannet: error: cannot read /nonexistent/gannet-body.json"))
    }

    @Test func verbosePrintsARawBody() async throws {
        let result = try await GannetBinary.run(["-v", "\(httpbin)/post"], stdin: .pipe(Data(#"{"v":2}"#.utf8)))
        #expect(result.out.hasPrefix("POST /post HTTP/1.1\n"))
        #expect(result.out.contains("\n\n{\"v\":2}\n\n"))
    }

    /// httpie's `http PUT URL @file`: a 2 GiB file goes up in constant memory, read from disk
    /// as the engine sends it. The file is sparse (no disk space used); the fault server reads
    /// and hashes every byte; the kernel's `ru_maxrss` of the child is its real peak.
    @Test func twoGiBFileGoesUpInConstantMemory() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let size: UInt64 = 2 * 1024 * 1024 * 1024
        let path = folder.appendingPathComponent("big.bin").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: size)
        try handle.close()

        let (result, peak) = try await GannetBinary.runMeasuringPeakMemory(
            ["--check-status", "PUT", "\(fault)/upload-digest", "@big.bin"],
            in: folder,
            timeout: .seconds(600)
        )
        #expect(result.status == 0, "\(result.err)")
        // The digest of 2 GiB of zero bytes (`head -c 2147483648 /dev/zero | sha256sum`).
        #expect(result.out == "\(size) \(Self.twoGiBOfZerosSHA256)")
        #expect(peak < 100 * 1024 * 1024, "peak RSS \(peak / 1024 / 1024) MiB while sending 2 GiB")
        print("gannet peak RSS while uploading 2 GiB: \(peak / 1024) KiB")
    }

    static let twoGiBOfZerosSHA256 = "a7c744c13cc101ed66c29f672f92455547889cc586ce6d44fe76ae824958ea51"

    func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-raw-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}
