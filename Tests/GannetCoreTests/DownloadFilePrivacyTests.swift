import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Issue 24, class 4, for downloads (docs/security.md, "Files"): the temporary file is new and
/// 0600, a destination is never written through a link (dangling or not), and resume data can
/// continue only the private partial file a cancelled download kept, never another file.
@Suite("Download files: private, never through a link or a named file")
final class DownloadFilePrivacyTests {
    let servers: TestServers
    let folder: URL

    init() throws {
        servers = try TestServers.shared()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-dl-privacy-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    private func download(to destination: URL, inspect: (@Sendable (URL) -> Void)? = nil) async -> DataResponse<URL> {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        return await manager.downloadResponse(for: URLRequest(url: servers.nginx.adding("/small"))) { temporary, _ in
            inspect?(temporary)
            return destination
        }
    }

    @Test func theTemporaryFileIsA0600RegularFileOfOurs() async throws {
        let seen = Mutex<(mode: UInt32, owner: UInt32, regular: Bool)?>(nil)
        let destination = folder.appendingPathComponent("small.txt")
        let response = await download(to: destination) { temporary in
            var status = stat()
            guard lstat(temporary.path, &status) == 0 else { return }
            seen.withLock { $0 = (status.st_mode & 0o7777, status.st_uid, status.st_mode & S_IFMT == S_IFREG) }
        }
        #expect(response.error == nil, "\(String(describing: response.error))")
        let status = try #require(seen.withLock { $0 })
        #expect(status.mode == 0o600)
        #expect(status.owner == geteuid())
        #expect(status.regular)
        #expect(FileManager.default.contents(atPath: destination.path) == Data("ok".utf8))
    }

    @Test func aDestinationThatIsALinkIsRefusedAndItsTargetUntouched() async throws {
        let victim = folder.appendingPathComponent("victim")
        try Data("precious".utf8).write(to: victim)
        let destination = folder.appendingPathComponent("saved")
        try FileManager.default.createSymbolicLink(at: destination, withDestinationURL: victim)
        let response = await download(to: destination)
        let error = try #require(response.error as? GannetError, "\(String(describing: response.error))")
        #expect(error.code == .downloadMoveFailed)
        #expect(error.message.contains("symbolic link"), "\(error.message)")
        #expect(try Data(contentsOf: victim) == Data("precious".utf8))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: destination.path) == victim.path)
    }

    @Test func aDestinationThatIsADanglingLinkIsRefusedAndNothingIsCreated() async throws {
        let target = folder.appendingPathComponent("would-be-created")
        let destination = folder.appendingPathComponent("saved")
        try FileManager.default.createSymbolicLink(at: destination, withDestinationURL: target)
        let response = await download(to: destination)
        #expect((response.error as? GannetError)?.code == .downloadMoveFailed, "\(String(describing: response.error))")
        #expect(!FileManager.default.fileExists(atPath: target.path))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: destination.path) == target.path)
    }

    /// Resume data is JSON anyone can write; a record naming one of the user's files (0600,
    /// theirs: what the old checks accepted) would have it truncated and overwritten.
    @Test(arguments: ["victim", "gannet-download-planted.tmp"])
    func resumeDataNamingAFileNotKeptByADownloadIsRefused(name: String) async throws {
        let victim = folder.appendingPathComponent(name)
        try Data("precious file of the user's".utf8).write(to: victim)
        chmod(victim.path, name == "victim" ? 0o600 : 0o644)
        let resume = try JSONSerialization.data(withJSONObject: [
            "version": 1, "url": servers.nginx.adding("/files/10m.bin").absoluteString,
            "headers": [String: String](), "file": victim.path, "offset": 8, "etag": "\"x\"",
        ])
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        #expect {
            _ = try manager.downloadTask(withResumeData: resume) { _ in }
        } throws: { ($0 as? GannetError)?.code == .invalidResumeData }
        #expect(try Data(contentsOf: victim) == Data("precious file of the user's".utf8))
    }

    @Test func resumeDataNamingALinkIsRefused() async throws {
        let victim = folder.appendingPathComponent("victim")
        try Data("precious file of the user's".utf8).write(to: victim)
        chmod(victim.path, 0o600)
        let link = folder.appendingPathComponent("gannet-download-link.tmp")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        let resume = try JSONSerialization.data(withJSONObject: [
            "version": 1, "url": servers.nginx.adding("/files/10m.bin").absoluteString,
            "headers": [String: String](), "file": link.path, "offset": 8, "etag": "\"x\"",
        ])
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        #expect {
            _ = try manager.downloadTask(withResumeData: resume) { _ in }
        } throws: { ($0 as? GannetError)?.code == .invalidResumeData }
        #expect(try Data(contentsOf: victim) == Data("precious file of the user's".utf8))
    }
}
