public import Foundation

/// Files too large to build in memory, for the gibibyte tests: written from `/dev/urandom` by
/// `head` and hashed by `sha256sum`, both from coreutils, so a test holds only the digest. Each
/// takes seconds; the calls wait for the process without blocking one of the few cooperative
/// threads every test shares (a blocked one once starved another test's Ctrl-C timing).
public enum LargeFile {
    /// Writes `size` random bytes to `name` in `directory`; returns the file and its SHA-256.
    public static func random(
        size: Int,
        named name: String,
        in directory: String
    ) async throws -> (
        url: URL, sha256: String
    ) {
        let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw TestServerError("Could not create \(url.path)")
        }
        let output = try FileHandle(forWritingTo: url)
        defer { try? output.close() }
        try await run("/usr/bin/head", ["-c", String(size), "/dev/urandom"], output: output)
        return (url, try await sha256(of: url))
    }

    /// The file's SHA-256, in hex.
    public static func sha256(of url: URL) async throws -> String {
        let pipe = Pipe()
        try await run("/usr/bin/sha256sum", [url.path], output: pipe.fileHandleForWriting)
        // 65 bytes and a path: the pipe holds them, so reading after the exit cannot block.
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard let digest = text.split(separator: " ").first, digest.count == 64 else {
            throw TestServerError("sha256sum \(url.path) failed: \(text)")
        }
        return String(digest)
    }

    private static func run(_ executable: String, _ arguments: [String], output: FileHandle) async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        try? output.close()
        guard status == 0 else {
            throw TestServerError("\(executable) \(arguments.joined(separator: " ")) exited with \(status)")
        }
    }
}
