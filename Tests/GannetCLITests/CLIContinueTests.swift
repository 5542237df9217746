import Foundation
import GannetTestSupport
import Testing

/// `gannet -d -c -o FILE`: a download interrupted with Ctrl-C is kept, and the same command
/// run again sends only the rest (nginx's log counts the bytes) and completes FILE byte-exact.
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
        let marker = "continue=\(UUID().uuidString)"
        // 40 MiB at nginx's 4 MiB/s: ten seconds, interrupted once 2 MiB are in the partial
        // file, so a loaded machine has time to deliver the Ctrl-C before the end.
        let name = "continue-\(UUID().uuidString).bin"
        var generator = SystemRandomNumberGenerator()
        let randomWords = (0..<(40 << 20) / 8).map { _ in generator.next() as UInt64 }
        let expected = randomWords.withUnsafeBytes { Data($0) }
        let source = URL(fileURLWithPath: servers.filesDirectory).appendingPathComponent(name)
        try expected.write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let url = "\(nginx)/slow-files/\(name)?\(marker)"
        let arguments = ["-d", "-c", "-o", "big.bin", url]
        let environment = ["TMPDIR": scratch.path]
        let interrupted = try await GannetBinary.runInterrupted(arguments, in: folder, environment: environment) { _ in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
            return names.contains { name in
                let size = try? FileManager.default.attributesOfItem(atPath: scratch.appendingPathComponent(name).path)[
                    .size
                ]
                return name.hasPrefix("gannet-download-") && ((size as? Int) ?? 0) > 2 << 20
            }
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
        #expect(kept > 2 << 20 && kept < 40 << 20, "\(kept)")

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
        // nginx: the second request was a 206 of the rest only.
        let sent = try #require(
            servers.nginxBytesSent(containing: marker, status: 206),
            "\(servers.accessLogLines(containing: marker))"
        )
        #expect(sent > (40 << 20) - kept && sent < (40 << 20) - kept + 2048, "\(sent) bytes after \(kept)")
    }

    /// The same with a gibibyte at 128 MiB/s, interrupted once a quarter is in; compared by
    /// SHA-256 (test.sh runs it alone, with the heavy tests).
    @Test func aGibibyteDownloadInterruptedWithCtrlCIsContinued() async throws {
        let folder = try folder()
        let scratch = try self.folder()
        defer {
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(at: scratch)
        }
        let name = "continue-gib-\(UUID().uuidString).bin"
        let (source, digest) = try await LargeFile.random(size: 1 << 30, named: name, in: servers.filesDirectory)
        defer { try? FileManager.default.removeItem(at: source) }
        let marker = "continue-gib=\(UUID().uuidString)"
        let arguments = ["-d", "-c", "-o", "big.bin", "\(nginx)/rated-files/\(name)?\(marker)"]
        let environment = ["TMPDIR": scratch.path]
        let interrupted = try await GannetBinary.runInterrupted(arguments, in: folder, environment: environment) { _ in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
            return names.contains { name in
                let path = scratch.appendingPathComponent(name).path
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int
                return name.hasPrefix("gannet-download-") && (size ?? 0) > 256 << 20
            }
        }
        #expect(interrupted.status == 130, "\(interrupted.err)")
        let record = folder.appendingPathComponent("big.bin.gannet-resume")
        let kept = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: record)) as? [String: Any])?["offset"] as? Int
        )
        #expect(kept > 256 << 20 && kept < 1 << 30, "\(kept)")

        let continued = try await GannetBinary.run(
            executable: try GannetBinary.location(),
            arguments: arguments,
            in: folder,
            timeout: .seconds(300),
            environment: environment
        )
        #expect(continued.status == 0, "\(continued.err)")
        #expect(try await LargeFile.sha256(of: folder.appendingPathComponent("big.bin")) == digest)
        let sent = try #require(servers.nginxBytesSent(containing: marker, status: 206))
        #expect(sent > (1 << 30) - kept && sent < (1 << 30) - kept + 2048, "\(sent) bytes for the rest after \(kept)")
    }

    @Test func continueNeedsAnOutputFile() async throws {
        let result = try await GannetBinary.run(["-d", "-c", "\(nginx)/files/1m.bin"])
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.contains("--continue needs --output"), "\(result.err)")
    }
}
