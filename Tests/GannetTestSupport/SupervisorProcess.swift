import GannetCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Starts Tests/Servers/testservers.py and holds its stdin open until this process exits.
///
/// The supervisor stops its servers when it reads EOF on stdin. The kernel closes the write end
/// when the test process exits, crashes or is killed, so no server outlives the tests.
enum SupervisorProcess {
    /// Long enough for a loaded 2-core machine; the supervisor gives up by itself after 30 s.
    private static let startTimeout: Duration = .seconds(90)

    /// The supervisor and its pipes, kept until exit: releasing the stdin pipe would stop the servers.
    private static let keptAlive = Mutex<[AnyObject]>([])

    static func launch() throws(TestServerError) -> ServerManifest {
        let script = repositoryRoot + "/Tests/Servers/testservers.py"
        guard FileManager.default.fileExists(atPath: script) else {
            throw TestServerError("The test server supervisor is missing at \(script)")
        }
        let python = ProcessInfo.processInfo.environment["GANNET_PYTHON"] ?? "python3"
        let process = ChildProcess()
        let input = Pipe()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, script]
        process.standardInput = input
        process.standardOutput = output
        do {
            try process.run()
        } catch {
            throw TestServerError("Could not start \(python) \(script): \(error)")
        }
        // Other programs the tests start must not inherit the write end, or it would outlive us.
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(output.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
        keptAlive.withLock { $0 += [process, input, output] }

        let line = try readLine(from: output.fileHandleForReading.fileDescriptor, while: process)
        guard let line else {
            process.waitUntilExit()
            if process.terminationStatus == 127 {
                throw TestServerError(
                    "\(python) not found on PATH: install Python 3.11 (`apt-get install python3`) "
                        + "or set GANNET_PYTHON, then run scripts/install-deps.sh"
                )
            }
            throw TestServerError(
                "The test server supervisor exited with status \(process.terminationStatus) "
                    + "before reporting its servers; its error output is above"
            )
        }
        let decoder = JSONDecoder()
        if let failure = try? decoder.decode(ServerManifestError.self, from: line) {
            throw TestServerError(failure.error)
        }
        do {
            return try decoder.decode(ServerManifest.self, from: line)
        } catch {
            throw TestServerError(
                "Unreadable test server manifest (\(error)): \(String(decoding: line, as: UTF8.self))"
            )
        }
    }

    /// Reads up to the first newline; `nil` when the supervisor exits first.
    private static func readLine(from fd: Int32, while process: ChildProcess) throws(TestServerError) -> Data? {
        let clock = ContinuousClock()
        let deadline = clock.now + startTimeout
        var line = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            if let newline = line.firstIndex(of: UInt8(ascii: "\n")) {
                return line[..<newline]
            }
            if clock.now > deadline {
                process.terminate()
                throw TestServerError("The test servers did not start within \(startTimeout)")
            }
            var pollFD = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            // A short timeout, so a supervisor that died while we hold a copy of its stdout is noticed.
            guard poll(&pollFD, 1, 100) > 0 else {
                if !process.isRunning && line.isEmpty { return nil }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            line.append(contentsOf: buffer[..<count])
        }
    }

    /// The package root: this file is Tests/GannetTestSupport/SupervisorProcess.swift.
    private static var repositoryRoot: String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .deletingLastPathComponent()
            .path
    }
}
