import Foundation
import Testing

@testable import GannetRequestSerialization

#if canImport(Glibc)
import Glibc
#endif

/// Issue 24, class 4: `writeMultipartBody(of:to:)` writes a new private file and replaces the
/// destination with it in one step; it never opens an existing path with `O_CREAT|O_TRUNC`,
/// which followed a planted link (truncating its target) and wrote into a file someone else
/// owned (docs/security.md, "Files").
@Suite("Multipart body files: new, 0600, never through a planted path")
final class MultipartFilePrivacyTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "gannet-multipart-privacy-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    private func request() throws -> URLRequest {
        try HTTPRequestSerializer().multipartFormRequest(method: "POST", urlString: "http://127.0.0.1:1/post") { form in
            try form.appendPart(formData: Data("secret form value".utf8), name: "token")
        }
    }

    private func status(_ path: String) -> stat? {
        var status = stat()
        return lstat(path, &status) == 0 ? status : nil
    }

    @Test func theFileIsCreated0600AndOurs() async throws {
        let output = folder + "/body.bin"
        _ = try await HTTPRequestSerializer().writeMultipartBody(of: try request(), to: URL(fileURLWithPath: output))
        let written = try #require(status(output))
        #expect(written.st_mode & 0o7777 == 0o600)
        #expect(written.st_uid == geteuid())
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["body.bin"])
    }

    @Test func aLinkAtTheDestinationIsRefusedAndItsTargetUntouched() async throws {
        let victim = folder + "/victim"
        #expect(FileManager.default.createFile(atPath: victim, contents: Data("precious".utf8)))
        let output = folder + "/body.bin"
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: victim)
        let error = await #expect(throws: RequestSerializationError.self) {
            try await HTTPRequestSerializer().writeMultipartBody(
                of: try self.request(),
                to: URL(fileURLWithPath: output)
            )
        }
        #expect(error?.code == .bodyWriteFailed)
        #expect((error?.underlyingError as? PrivateFileError)?.code == .destinationIsSymbolicLink)
        #expect(FileManager.default.contents(atPath: victim) == Data("precious".utf8))
    }

    @Test func aDanglingLinkAtTheDestinationIsRefusedAndNothingIsCreated() async throws {
        let target = folder + "/would-be-created"
        let output = folder + "/body.bin"
        try FileManager.default.createSymbolicLink(atPath: output, withDestinationPath: target)
        await #expect(throws: RequestSerializationError.self) {
            try await HTTPRequestSerializer().writeMultipartBody(
                of: try self.request(),
                to: URL(fileURLWithPath: output)
            )
        }
        #expect(status(target) == nil)
    }

    /// A file someone else left at the destination (0666, and `nobody`'s when the tests run as
    /// root) is replaced by a new file of ours, not written into.
    @Test func aPlantedFileIsReplacedNotReused() async throws {
        let output = folder + "/body.bin"
        #expect(FileManager.default.createFile(atPath: output, contents: Data("planted".utf8)))
        chmod(output, 0o666)
        if geteuid() == 0 { chown(output, 65534, 65534) }
        let planted = try #require(status(output))
        _ = try await HTTPRequestSerializer().writeMultipartBody(of: try request(), to: URL(fileURLWithPath: output))
        let written = try #require(status(output))
        #expect(written.st_ino != planted.st_ino)
        #expect(written.st_uid == geteuid())
        #expect(written.st_mode & 0o7777 == 0o600)
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)).range(of: Data("secret form value".utf8)) != nil)
    }
}
