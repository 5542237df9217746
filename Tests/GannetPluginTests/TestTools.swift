import Foundation
import GannetTestSupport
import Testing

/// The fixture certificates, read from the source tree next to this file.
enum FixtureFiles {
    static let targetDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let directory = targetDirectory.appending(path: "Fixtures")

    static func url(_ relativePath: String) -> URL {
        directory.appending(path: relativePath)
    }

    static func data(_ relativePath: String) throws -> Data {
        try Data(contentsOf: url(relativePath))
    }
}

/// Runs command-line tools for the tests: `openssl` is the independent judge of what the
/// embedder decodes, `swiftc` of whether what it generates compiles.
enum CommandLineTool {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// What a finished process left behind.
    struct Outcome {
        var status: Int32
        var output: Data
        var errors: String
    }

    /// Runs `executable` to its end on a Dispatch thread. Standard error goes to a file so that
    /// neither pipe can fill up while the other is read.
    ///
    /// Never wait for a process on Swift's cooperative pool: it has one thread per core (two
    /// here) for every test of the process, and a `swiftc` run holds its thread for seconds, so
    /// two of them stalled every other test, timers included, for as long.
    static func execute(_ executable: URL, _ arguments: [String]) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try executeBlocking(executable, arguments) })
            }
        }
    }

    private static func executeBlocking(_ executable: URL, _ arguments: [String]) throws -> Outcome {
        let scratch = try TemporaryDirectory()
        let errorsURL = try scratch.write("stderr", Data())
        let errorsHandle = try FileHandle(forWritingTo: errorsURL)
        defer { try? errorsHandle.close() }

        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorsHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = String(decoding: try Data(contentsOf: errorsURL), as: UTF8.self)
        return Outcome(status: process.terminationStatus, output: data, errors: errors)
    }

    /// Runs `name` found on the PATH; throws with its standard error when it exits non-zero.
    @discardableResult
    static func run(_ name: String, _ arguments: [String]) async throws -> (output: Data, errors: String) {
        let outcome = try await execute(URL(fileURLWithPath: "/usr/bin/env"), [name] + arguments)
        guard outcome.status == 0 else {
            throw Failure(
                description:
                    "\(name) \(arguments.joined(separator: " ")) exited with \(outcome.status): \(outcome.errors)"
            )
        }
        return (outcome.output, outcome.errors)
    }

    /// `openssl x509 -outform der` of a file, or of the first certificate in PEM text.
    static func derOfCertificate(pemText: String) async throws -> Data {
        let scratch = try TemporaryDirectory()
        let input = try scratch.write("in.pem", Data(pemText.utf8))
        return try await run("openssl", ["x509", "-in", input.path(percentEncoded: false), "-outform", "der"]).output
    }

    static func derOfCertificate(derFile: URL) async throws -> Data {
        try await run(
            "openssl",
            ["x509", "-inform", "der", "-in", derFile.path(percentEncoded: false), "-outform", "der"]
        ).output
    }

    /// The subject of a DER certificate, one-line RFC 2253 form (`CN=...,O=Gannet`).
    static func subject(ofDER der: Data) async throws -> String {
        let scratch = try TemporaryDirectory()
        let input = try scratch.write("cert.der", der)
        let output = try await run(
            "openssl",
            [
                "x509", "-inform", "der", "-in", input.path(percentEncoded: false), "-noout", "-subject", "-nameopt",
                "RFC2253",
            ]
        ).output
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A fresh directory under the system temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "gannet-plugin-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    var path: String { url.path(percentEncoded: false) }

    @discardableResult
    func write(_ relativePath: String, _ contents: Data) throws -> URL {
        let file = url.appending(path: relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try contents.write(to: file)
        return file
    }

    @discardableResult
    func write(_ relativePath: String, _ text: String) throws -> URL {
        try write(relativePath, Data(text.utf8))
    }
}
