import Foundation
import GannetTestSupport
import Testing

/// `gannet --offline`: the request as it would be sent, printed on stdout, and nothing sent.
@Suite("gannet --offline")
struct CLIOfflineTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    @Test func theRequestIsPrintedAndNeverSent() async throws {
        let marker = "offline-\(UUID().uuidString)"
        let result = try await GannetBinary.run([
            "--offline", "POST", "\(nginx)/echo?\(marker)", "name=Gannet", "X-Trace:1",
        ])
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.components(separatedBy: "\n")
        #expect(lines.first == "POST /echo?\(marker) HTTP/1.1", "\(result.out)")
        #expect(lines.contains("Content-Type: application/json"), "\(result.out)")
        #expect(lines.contains("X-Trace: 1"), "\(result.out)")
        #expect(lines.contains { $0.hasPrefix("Host: 127.0.0.1:") }, "\(result.out)")
        #expect(result.out.contains(#"{"name":"Gannet"}"#), "\(result.out)")

        // nginx logs each request as it ends: a request sent after the offline one is logged
        // and the offline one is not.
        let after = "after-\(marker)"
        let sent = try await GannetBinary.run(["\(nginx)/small?\(after)"])
        #expect(sent.status == 0, "\(sent.err)")
        #expect(await eventually(within: 30) { !servers.accessLogLines(containing: after).isEmpty })
        #expect(servers.accessLogLines(containing: marker).filter { !$0.contains(after) } == [])
    }

    /// `--print` still chooses what is printed; `--download` has nothing to save.
    @Test func printChoosesAndDownloadSavesNothing() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-offline-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await GannetBinary.run(
            ["--offline", "--print=H", "--download", "\(nginx)/files/1m.bin"],
            in: directory
        )
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("GET /files/1m.bin HTTP/1.1\n"), "\(result.out)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [])
    }
}
