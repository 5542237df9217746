import Foundation
import GannetTestSupport
import Testing

/// `gannet -d -c -o FILE`: a download interrupted with Ctrl-C is kept, and the same command
/// run again sends only the rest (the fault server counts the bytes) and completes FILE
/// byte-exact.
@Suite("gannet --continue")
struct CLIContinueTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    private func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-continue-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func anInterruptedDownloadIsContinuedAndOnlyTheRestIsSent() async throws {
        let folder = try folder()
        let scratch = try self.folder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: scratch)
        }
        // The fault server sends the first MiB of 4 and holds the rest until the connection
        // closes (Tests/Servers/held_routes.py): the Ctrl-C always comes first, however fast or
        // loaded the machine (a rate-limited body, which this replaced, was finished first on a
        // loaded machine).
        let (source, expected) = try servers.heldFile(bytes: 4 << 20)
        defer { try? FileManager.default.removeItem(at: source) }
        let key = UUID().uuidString
        let prefix = 1 << 20
        let arguments = [
            "-d", "-c", "-o", "big.bin", servers.url(.heldFile(key: key, file: source, prefix: prefix)).absoluteString,
        ]
        let environment = ["TMPDIR": scratch.path]
        let interrupted = try await GannetBinary.runInterrupted(arguments, in: folder, environment: environment) { _ in
            Self.partialDownloadSize(in: scratch) == prefix
        }
        #expect(interrupted.status == 130, "\(interrupted.err)")
        #expect(interrupted.err.contains("kept the partial download"), "\(interrupted.err)")
        let record = folder.appendingPathComponent("big.bin.gannet-resume")
        let mode = try FileManager.default.attributesOfItem(atPath: record.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("big.bin").path))
        let kept = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])?["offset"] as? Int
        )
        #expect(kept == prefix)
        try await servers.waitForHeldFile(key: key, "the interrupted request to close") {
            $0.requests.first?.aborted == true
        }

        let continued = try await GannetBinary.run(
            executable: try GannetBinary.location(),
            arguments: arguments,
            in: folder,
            timeout: .seconds(60),
            environment: environment
        )
        #expect(continued.status == 0, "\(continued.err)")
        #expect(continued.err.contains("continuing the download"), "\(continued.err)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("big.bin")) == expected)
        #expect(!FileManager.default.fileExists(atPath: record.path))
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []).isEmpty)
        // The second request was a 206 of the rest only.
        let requests = try await servers.heldFileStats(key: key).requests
        #expect(requests.count == 2)
        #expect(requests.last?.status == 206 && requests.last?.rangeStart == kept)
        #expect(requests.last?.sent == (4 << 20) - kept && requests.last?.completed == true, "\(requests)")
    }

    /// The same with a gibibyte, held after a quarter; compared by SHA-256 (test.sh runs it
    /// alone, with the heavy tests).
    @Test func aGibibyteDownloadInterruptedWithCtrlCIsContinued() async throws {
        let folder = try folder()
        let scratch = try self.folder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: scratch)
        }
        let name = "gannet-held-\(UUID().uuidString).bin"
        let directory = FileManager.default.temporaryDirectory.path
        let (source, digest) = try await LargeFile.random(size: 1 << 30, named: name, in: directory)
        defer { try? FileManager.default.removeItem(at: source) }
        let key = UUID().uuidString
        let prefix = 256 << 20
        let arguments = [
            "-d", "-c", "-o", "big.bin", servers.url(.heldFile(key: key, file: source, prefix: prefix)).absoluteString,
        ]
        let environment = ["TMPDIR": scratch.path]
        let interrupted = try await GannetBinary.runInterrupted(arguments, in: folder, environment: environment) { _ in
            Self.partialDownloadSize(in: scratch) == prefix
        }
        #expect(interrupted.status == 130, "\(interrupted.err)")
        let record = folder.appendingPathComponent("big.bin.gannet-resume")
        let kept = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])?["offset"] as? Int
        )
        #expect(kept == prefix)

        let continued = try await GannetBinary.run(
            executable: try GannetBinary.location(),
            arguments: arguments,
            in: folder,
            timeout: .seconds(300),
            environment: environment
        )
        #expect(continued.status == 0, "\(continued.err)")
        #expect(try await LargeFile.sha256(of: folder.appendingPathComponent("big.bin")) == digest)
        let requests = try await servers.heldFileStats(key: key).requests
        #expect(requests.last?.status == 206 && requests.last?.rangeStart == kept)
        #expect(requests.last?.sent == (1 << 30) - kept, "\(requests)")
    }

    /// The size of the CLI's partial download in `scratch` (its TMPDIR), if it has begun.
    private static func partialDownloadSize(in scratch: URL) -> Int? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
        guard let name = names.first(where: { $0.hasPrefix("gannet-download-") }) else { return nil }
        let path = scratch.appendingPathComponent(name).path
        return (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int
    }

    @Test func continueNeedsAnOutputFile() async throws {
        let result = try await GannetBinary.run(["-d", "-c", "\(nginx)/files/1m.bin"])
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.contains("--continue needs --output"), "\(result.err)")
    }
}
