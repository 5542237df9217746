import Foundation
import GannetTestSupport
import Testing

/// `--output` naming a directory: refused with a clear message, the directory and its contents
/// left as they were (a download replaces a file, never a directory; docs/cli.md, "Files").
@Suite("gannet --output DIR")
struct CLIDownloadDirectoryTests: CLIServerSuite {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    func folderWithADirectory() throws -> (folder: URL, directory: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-dldir-\(UUID().uuidString)")
        let directory = folder.appendingPathComponent("keep")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: directory.appendingPathComponent("inside.txt"))
        return (folder, directory)
    }

    func expectUntouched(_ directory: URL) throws {
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["inside.txt"])
        #expect(try Data(contentsOf: directory.appendingPathComponent("inside.txt")) == Data("precious".utf8))
    }

    @Test(arguments: [["-d", "-o", "keep"], ["-o", "keep"], ["--download", "--output", "keep/"]])
    func outputNamingADirectoryIsRefusedAndTheDirectoryKept(_ options: [String]) async throws {
        let (folder, directory) = try folderWithADirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await GannetBinary.run(options + ["\(nginx)/files/1m.bin"], in: folder)
        #expect(result.status == 1)
        #expect(result.err.contains("gannet: error: --output \(directory.path) is a directory"), "\(result.err)")
        #expect(result.stdout.isEmpty)
        try expectUntouched(directory)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["keep"])
    }
}
