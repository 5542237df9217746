import Foundation
import GannetTestSupport
import Synchronization
import Testing

/// The built `gannet` executable and a way to run it.
///
/// SwiftPM puts executables beside the test bundle (`.build/<triple>/debug/gannet` next to
/// `GannetPackageTests.xctest`); the bundle's folder is found from the running test binary,
/// then from this file's path, so `swift test` and a test binary run by hand both work.
/// `GANNET_BINARY` overrides the search.
enum GannetBinary {
    struct Result: Sendable {
        let status: Int32
        let stdout: Data
        let stderr: Data
        var out: String { String(decoding: stdout, as: UTF8.self) }
        var err: String { String(decoding: stderr, as: UTF8.self) }

        /// stdout parsed as JSON (httpbin's echo).
        func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: stdout)
            return try #require(object as? [String: Any], "stdout is not a JSON object: \(out.prefix(300))")
        }
    }

    static func location() throws -> URL {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["GANNET_BINARY"] {
            candidates.append(URL(fileURLWithPath: override))
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        candidates.append(executable.deletingLastPathComponent().appendingPathComponent("gannet"))
        // On Darwin the test binary sits inside `GannetPackageTests.xctest/Contents/MacOS/`.
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/", !folder.lastPathComponent.hasSuffix(".xctest") {
            folder = folder.deletingLastPathComponent()
        }
        if folder.path != "/" { candidates.append(folder.deletingLastPathComponent().appendingPathComponent("gannet")) }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/gannet"))
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
                fileManager.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        throw BinaryNotFound(searched: candidates.map(\.path))
    }

    struct BinaryNotFound: Error, CustomStringConvertible {
        let searched: [String]
        var description: String {
            "the gannet executable was not found (build it with `swift build`, or set GANNET_BINARY); looked at: "
                + searched.joined(separator: ", ")
        }
    }

    /// Runs `gannet arguments` with stdout and stderr captured (so both are pipes, never a
    /// terminal), in `directory` when given, and returns its exit status and output.
    static func run(
        _ arguments: [String],
        in directory: URL? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        try await run(executable: location(), arguments: arguments, in: directory, timeout: timeout)
    }

    /// Runs `gannet arguments` and sends it SIGINT (Ctrl-C) once `ready` holds, given what it
    /// has written to stdout so far; checked every 20 ms. A signal of readiness, never a fixed
    /// delay: on a loaded machine the command may not have started its request after a second.
    static func runInterrupted(
        _ arguments: [String],
        in directory: URL? = nil,
        environment: [String: String]? = nil,
        when ready: @escaping @Sendable (Data) -> Bool
    ) async throws -> Result {
        try await run(
            executable: location(),
            arguments: arguments,
            in: directory,
            timeout: .seconds(60),
            environment: environment,
            interruptWhen: ready
        )
    }

    /// Runs `gannet` inside a pseudo-terminal (`script`), so its stdout and stderr are a tty,
    /// without the test runner's `NO_COLOR` (see ``runOnTerminal(_:environment:)``).
    static func runOnTerminal(_ arguments: [String]) async throws -> Result {
        try await runOnTerminal(arguments, environment: [:])
    }

    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    static func run(
        executable: URL,
        arguments: [String],
        in directory: URL?,
        timeout: Duration,
        environment: [String: String]? = nil,
        interruptWhen ready: (@Sendable (Data) -> Bool)? = nil
    ) async throws -> Result {
        let process = ChildProcess()
        process.executableURL = executable
        process.arguments = arguments
        if let environment {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = directory }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        // Read both pipes while the process runs, so a large output cannot fill a pipe and stall
        // it; on dispatch threads, since a blocking read would hold a thread of the (small)
        // cooperative pool and starve the watchdog.
        let soFar = OutputSoFar()
        async let out = readToEnd(stdout, into: soFar)
        async let err = readToEnd(stderr)
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            process.terminate()
        }
        let interrupter = Task {
            guard let ready else { return }
            while !ready(soFar.data) {
                try await Task.sleep(for: .milliseconds(20))
            }
            process.interrupt()
        }
        for await _ in exited.stream {}
        watchdog.cancel()
        interrupter.cancel()
        let (outData, errData) = await (out, err)
        return Result(status: process.terminationStatus, stdout: outData, stderr: errData)
    }

    private static func readToEnd(_ pipe: Pipe, into soFar: OutputSoFar? = nil) async -> Data {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                guard let soFar else {
                    continuation.resume(returning: pipe.fileHandleForReading.readDataToEndOfFile())
                    return
                }
                while true {
                    let chunk = pipe.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    soFar.append(chunk)
                }
                continuation.resume(returning: soFar.data)
            }
        }
    }

    /// What a process has written so far, read while it runs.
    final class OutputSoFar: Sendable {
        private let bytes = Mutex(Data())
        var data: Data { bytes.withLock { $0 } }
        func append(_ chunk: Data) { bytes.withLock { $0.append(chunk) } }
    }
}
