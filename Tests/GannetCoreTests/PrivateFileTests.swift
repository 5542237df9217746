import Foundation
import GannetCore
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `PrivateFile`, the one way Gannet creates and replaces its files (docs/security.md,
/// "Files"): new, 0600, owned by this user, never through a link or a file someone planted.
@Suite("Private files: created new, 0600, never through a planted path")
final class PrivateFileTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "gannet-private-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// A file planted as if by another user: mode 0666 and, when the tests run as root, owned
    /// by `nobody`.
    static func plant(_ path: String, _ text: String = "planted") {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        chmod(path, 0o666)
        if geteuid() == 0 { chown(path, 65534, 65534) }
    }

    static func mode(_ path: String) -> (mode: mode_t, owner: uid_t, isLink: Bool)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return (status.st_mode & 0o7777, status.st_uid, status.st_mode & S_IFMT == S_IFLNK)
    }

    @Test func aCreatedFileIsNewRegular0600AndOurs() throws {
        let created = try PrivateFile.create(in: folder, prefix: "x-", suffix: ".tmp")
        defer { close(created.descriptor) }
        #expect(created.path.hasPrefix(folder + "/x-") && created.path.hasSuffix(".tmp"))
        let status = try #require(Self.mode(created.path))
        #expect(status.mode == 0o600)
        #expect(status.owner == geteuid())
        #expect(!status.isLink)
    }

    @Test func creatingInAMissingFolderIsATypedError() {
        #expect {
            _ = try PrivateFile.create(in: folder + "/missing", prefix: "x-")
        } throws: { ($0 as? PrivateFileError)?.code == .cannotCreate }
    }

    @Test func replaceWritesAtomicallyA0600File() throws {
        let destination = folder + "/session.json"
        try PrivateFile.replace(destination, with: Data("one".utf8))
        try PrivateFile.replace(destination, with: Data("two".utf8))
        #expect(FileManager.default.contents(atPath: destination) == Data("two".utf8))
        #expect(Self.mode(destination)?.mode == 0o600)
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["session.json"])
    }

    @Test func aSymbolicLinkAtTheDestinationIsRefusedAndItsTargetUntouched() throws {
        let target = folder + "/victim"
        #expect(FileManager.default.createFile(atPath: target, contents: Data("precious".utf8)))
        let destination = folder + "/session.json"
        try FileManager.default.createSymbolicLink(atPath: destination, withDestinationPath: target)
        #expect {
            try PrivateFile.replace(destination, with: Data("secret".utf8))
        } throws: { ($0 as? PrivateFileError)?.code == .destinationIsSymbolicLink }
        #expect(FileManager.default.contents(atPath: target) == Data("precious".utf8))
        #expect(Self.mode(destination)?.isLink == true)
    }

    @Test func aDanglingSymbolicLinkAtTheDestinationIsRefusedAndNothingIsCreated() throws {
        let target = folder + "/would-be-created"
        let destination = folder + "/session.json"
        try FileManager.default.createSymbolicLink(atPath: destination, withDestinationPath: target)
        #expect {
            try PrivateFile.replace(destination, with: Data("secret".utf8))
        } throws: { ($0 as? PrivateFileError)?.code == .destinationIsSymbolicLink }
        #expect(Self.mode(target) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["session.json"])
    }

    @Test func aDirectoryAtTheDestinationIsRefused() throws {
        let destination = folder + "/dir"
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
        #expect {
            try PrivateFile.replace(destination, with: Data("x".utf8))
        } throws: { ($0 as? PrivateFileError)?.code == .destinationNotRegularFile }
    }

    /// A file someone else left at the destination is replaced by a new one of ours, never
    /// written through: its owner cannot read what was saved.
    @Test func aPlantedFileAtTheDestinationIsReplacedNotReused() throws {
        let destination = folder + "/session.json"
        Self.plant(destination)
        var before = stat()
        #expect(stat(destination, &before) == 0)
        try PrivateFile.replace(destination, with: Data("secret".utf8))
        var after = stat()
        #expect(stat(destination, &after) == 0)
        #expect(after.st_ino != before.st_ino)
        #expect(after.st_uid == geteuid())
        #expect(after.st_mode & 0o7777 == 0o600)
    }

    @Test func reuseRefusesALinkAFileOfOthersOrAPublicFile() throws {
        let own = folder + "/own"
        let created = try PrivateFile.create(in: folder, prefix: "own-")
        close(created.descriptor)
        let descriptor = try PrivateFile.openExisting(created.path, flags: O_WRONLY)
        close(descriptor)

        let link = folder + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: created.path)
        #expect {
            _ = try PrivateFile.openExisting(link, flags: O_WRONLY)
        } throws: { ($0 as? PrivateFileError)?.code == .destinationIsSymbolicLink }

        Self.plant(own)
        #expect {
            _ = try PrivateFile.openExisting(own, flags: O_WRONLY)
        } throws: { ($0 as? PrivateFileError)?.code == .notPrivate }
        #expect {
            _ = try PrivateFile.read(own, maximumBytes: 100)
        } throws: { ($0 as? PrivateFileError)?.code == .notPrivate }
    }

    @Test func readReturnsNilForNoFileAndRefusesOversizedOnes() throws {
        #expect(try PrivateFile.read(folder + "/none", maximumBytes: 10) == nil)
        let path = folder + "/big"
        try PrivateFile.replace(path, with: Data(repeating: 65, count: 11))
        #expect(try PrivateFile.read(path, maximumBytes: 11) == Data(repeating: 65, count: 11))
        #expect {
            _ = try PrivateFile.read(path, maximumBytes: 10)
        } throws: { ($0 as? PrivateFileError)?.code == .fileTooLarge }
    }
}
