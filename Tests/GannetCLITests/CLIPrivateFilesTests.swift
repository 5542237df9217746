import Foundation
import GannetTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24, class 4, through the real `gannet` (docs/cli.md, "Files gannet writes"): the
/// session file, `--output`/`--download` destinations and `--continue`'s resume record are
/// never written through a link or a file someone else planted, and what gannet creates is
/// 0600 and its own.
///
/// The old session writer used the predictable name `PATH.tmp-PID`; the tests plant there by
/// starting a shell that plants at `PATH.tmp-$$` and then `exec`s gannet, which keeps the
/// shell's process id: no race, no guessing.
@Suite("gannet's files: never through a planted path")
final class CLIPrivateFilesTests: CLIServerSuite {
    let servers: TestServers
    let folder: URL

    init() throws {
        servers = try TestServers.shared()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-cli-files-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    private func gannet(_ arguments: [String]) async throws -> GannetBinary.Result {
        try await GannetBinary.run(
            executable: try GannetBinary.location(),
            arguments: arguments,
            in: folder,
            timeout: .seconds(60),
            environment: ["XDG_CONFIG_HOME": folder.path, "TMPDIR": folder.path]
        )
    }

    /// Runs `plant` in a shell (`$1` the victim, `$2` the session path, `$$` the process id
    /// gannet will have), then gannet with `--session $2 URL` in the same process.
    private func gannetAfterPlanting(
        _ plant: String,
        victim: String,
        session: String
    ) async throws
        -> GannetBinary.Result
    {
        let script = plant + " && exec \"$3\" --session \"$2\" \"$4\""
        return try await GannetBinary.run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: [
                "-c", script, "sh", victim, session, try GannetBinary.location().path, "\(httpbin)/cookies/set?k=v",
            ],
            in: folder,
            timeout: .seconds(60)
        )
    }

    private func status(_ path: String) -> stat? {
        var status = stat()
        return lstat(path, &status) == 0 ? status : nil
    }

    private func victim(_ name: String = "victim") throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    // MARK: --session

    @Test func aLinkPlantedAtTheSessionsOldTemporaryNameIsNotFollowed() async throws {
        let victim = try victim()
        let session = folder.appendingPathComponent("s.json").path
        let result = try await gannetAfterPlanting("ln -s \"$1\" \"$2.tmp-$$\"", victim: victim, session: session)
        #expect(result.status == 0, "\(result.err)")
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8), "the link was followed")
        let saved = try #require(status(session))
        #expect(saved.st_mode & S_IFMT == S_IFREG && saved.st_mode & 0o7777 == 0o600 && saved.st_uid == geteuid())
    }

    /// A file planted at the old temporary name (0666, `nobody`'s when the tests run as root)
    /// was written into and renamed into place: the saved session, password included, was
    /// someone else's file.
    @Test func aFilePlantedAtTheSessionsOldTemporaryNameIsNotReused() async throws {
        let session = folder.appendingPathComponent("s.json").path
        let plant =
            "printf planted > \"$2.tmp-$$\" && chmod 666 \"$2.tmp-$$\" && { chown 65534 \"$2.tmp-$$\" || true; }"
        let result = try await gannetAfterPlanting(plant, victim: "", session: session)
        #expect(result.status == 0, "\(result.err)")
        let saved = try #require(status(session))
        #expect(saved.st_uid == geteuid(), "the session file is the planter's")
        #expect(saved.st_mode & 0o7777 == 0o600)
        let planted = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasPrefix("s.json.tmp-")
        }
        #expect(planted.count == 1, "\(planted)")
        #expect(
            planted.first.flatMap { FileManager.default.contents(atPath: folder.appendingPathComponent($0).path) }
                == Data("planted".utf8)
        )
    }

    @Test func aSessionPathThatIsALinkIsRefusedAndItsTargetUntouched() async throws {
        let victim = try victim()
        let session = folder.appendingPathComponent("s.json").path
        try FileManager.default.createSymbolicLink(atPath: session, withDestinationPath: victim)
        let result = try await gannet(["--session", session, "\(httpbin)/cookies/set?k=v"])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains("symbolic link"), "\(result.err)")
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
        #expect(status(session).map { $0.st_mode & S_IFMT == S_IFLNK } == true)
    }

    @Test func aSessionPathThatIsADanglingLinkIsRefusedAndNothingIsCreated() async throws {
        let target = folder.appendingPathComponent("would-be-created").path
        let session = folder.appendingPathComponent("s.json").path
        try FileManager.default.createSymbolicLink(atPath: session, withDestinationPath: target)
        let result = try await gannet(["--session", session, "\(httpbin)/cookies/set?k=v"])
        #expect(result.status == 1, "\(result.err)")
        #expect(status(target) == nil)
        #expect(status(session).map { $0.st_mode & S_IFMT == S_IFLNK } == true)
    }

    /// A session file someone else wrote (theirs, or writable by others) would send their
    /// headers and cookies with the user's request: refused, nothing sent.
    @Test func aSessionFileOfSomeoneElseIsNotRead() async throws {
        let session = folder.appendingPathComponent("s.json").path
        let planted = #"{"version": 1, "headers": {"X-Planted": "yes"}, "cookies": []}"#
        try Data(planted.utf8).write(to: URL(fileURLWithPath: session))
        chmod(session, 0o666)
        let result = try await gannet(["--session", session, "\(httpbin)/headers"])
        #expect(result.status == 1, "\(result.out)")
        #expect(!result.out.contains("X-Planted"))
        #expect(result.err.contains("cannot read the session file"), "\(result.err)")
    }

    // MARK: --output and --download

    @Test func anOutputThatIsALinkIsRefusedBeforeAnythingIsSent() async throws {
        let victim = try victim()
        let output = folder.appendingPathComponent("out.txt").path
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: victim)
        let marker = "link-output=\(UUID().uuidString)"
        let result = try await gannet(["--output", output, "\(nginx)/small?\(marker)"])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains("symbolic link"), "\(result.err)")
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
        #expect(status(output).map { $0.st_mode & S_IFMT == S_IFLNK } == true)
        #expect(servers.accessLogLines(containing: marker).isEmpty)
    }

    @Test func anOutputThatIsADanglingLinkIsRefusedAndNothingIsCreated() async throws {
        let target = folder.appendingPathComponent("would-be-created").path
        let output = folder.appendingPathComponent("out.txt").path
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: target)
        let result = try await gannet(["--output", output, "\(nginx)/small"])
        #expect(result.status == 1, "\(result.err)")
        #expect(status(target) == nil)
        #expect(status(output).map { $0.st_mode & S_IFMT == S_IFLNK } == true)
    }

    /// `--download` names the file itself: a dangling link at the name counts as taken, so the
    /// body goes to `small-1`, and the link stays as it was.
    @Test func downloadSkipsANameHeldByADanglingLink() async throws {
        let target = folder.appendingPathComponent("would-be-created").path
        let held = folder.appendingPathComponent("small").path
        try FileManager.default.createSymbolicLink(atPath: held, withDestinationPath: target)
        let result = try await gannet(["--download", "\(nginx)/small"])
        #expect(result.status == 0, "\(result.err)")
        #expect(status(held).map { $0.st_mode & S_IFMT == S_IFLNK } == true)
        #expect(status(target) == nil)
        #expect(FileManager.default.contents(atPath: folder.appendingPathComponent("small-1").path) == Data("ok".utf8))
    }

    // MARK: --continue

    /// A resume record someone else left next to FILE names the file to continue: before, a
    /// user's own file was truncated, filled with the server's bytes and moved to FILE.
    @Test(arguments: [true, false])
    func aPlantedResumeRecordIsNotFollowed(recordIsTheUsers: Bool) async throws {
        let victim = try victim("notes.txt")
        chmod(victim, 0o644)
        let record = folder.appendingPathComponent("big.bin.gannet-resume").path
        let fields: [String: Any] = [
            "version": 1, "url": "\(nginx)/files/10m.bin", "headers": [String: String](), "file": victim,
            "offset": 4, "etag": "\"planted\"",
        ]
        try JSONSerialization.data(withJSONObject: fields).write(to: URL(fileURLWithPath: record))
        // A record of the user's own (0600) still names a file no download kept; one that is
        // not theirs is not read at all.
        chmod(record, recordIsTheUsers ? 0o600 : 0o666)
        let result = try await gannet(["-d", "-c", "-o", "big.bin", "\(nginx)/files/10m.bin"])
        #expect(result.status == 0, "\(result.err)")
        #expect(!result.err.contains("continuing the download"), "\(result.err)")
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
        let expected = try Data(contentsOf: URL(fileURLWithPath: servers.tenMegabyteFile))
        #expect(try Data(contentsOf: folder.appendingPathComponent("big.bin")) == expected)
    }

    /// Ctrl-C writes `FILE.gannet-resume`: a link planted there is neither followed nor
    /// replaced; the partial download is not kept (no record to continue it) and is deleted.
    @Test func aLinkAtTheResumeRecordIsNotFollowedWhenInterrupted() async throws {
        let victim = try victim()
        let record = folder.appendingPathComponent("big.bin.gannet-resume").path
        try FileManager.default.createSymbolicLink(atPath: record, withDestinationPath: victim)
        let folder = self.folder
        // The first MiB of 4, the rest held until the connection closes (Tests/Servers/held_routes.py),
        // interrupted once that MiB is in the partial file: the Ctrl-C always comes first,
        // however fast the machine (10 MiB at nginx's 4 MiB/s bet that it would).
        let held = try servers.heldBody(bytes: 4 << 20, prefix: 1 << 20)
        defer { try? FileManager.default.removeItem(at: held.file) }
        let interrupted = try await GannetBinary.runInterrupted(
            ["-d", "-c", "-o", "big.bin", servers.url(held.route).absoluteString],
            in: folder,
            environment: ["TMPDIR": folder.path]
        ) { _ in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.contains { name in
                let path = folder.appendingPathComponent(name).path
                let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int
                return name.hasPrefix("gannet-download-") && size == 1 << 20
            }
        }
        #expect(interrupted.status == 130, "\(interrupted.err)")
        #expect(interrupted.err.contains("cannot keep the partial download"), "\(interrupted.err)")
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
        #expect(status(record).map { $0.st_mode & S_IFMT == S_IFLNK } == true)
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!left.contains { $0.hasPrefix("gannet-download-") }, "\(left)")
    }
}
