import GannetCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A single-purpose server script of Tests/Servers (`tls_fault_server.py`, `upload_fault_server.py`,
/// `pool_fault_server.py`), started by one test for itself.
///
/// The script listens on loopback ports the kernel picks, prints them as the first line of its
/// standard output (JSON), and may print one line per event afterwards. It stops when its
/// standard input reaches EOF: ``stop()`` closes that pipe and sends SIGTERM to its PID, and the
/// kernel closes the pipe if the test process dies, so the script never outlives the test.
public final class HelperServer: Sendable {
    private let process: ChildProcess
    private let input: Pipe
    private let lines = Lines()

    /// The printed lines, shared with the reading thread.
    private final class Lines: Sendable {
        let storage = Mutex<[String]>([])
    }

    /// Starts `python3 Tests/Servers/SCRIPT ARGUMENTS…` (`GANNET_PYTHON` overrides the interpreter).
    public init(script: String, arguments: [String] = []) throws {
        let path =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers").appendingPathComponent(script).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestServerError("The helper server \(path) is missing")
        }
        process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [ProcessInfo.processInfo.environment["GANNET_PYTHON"] ?? "python3", path] + arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Other programs the tests start must not inherit these ends, or the script would outlive us.
        _ = fcntl(input.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        _ = fcntl(output.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
        let reader = output.fileHandleForReading
        let lines = self.lines
        // A plain thread, not the cooperative pool: it blocks in read(2) until the script exits.
        Thread {
            var pending = Data()
            // availableData returns what one read(2) got (read(upToCount:) would wait for all of it).
            while case let data = reader.availableData, !data.isEmpty {
                pending.append(data)
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    lines.storage.withLock { $0.append(line) }
                    pending = Data(pending[(newline + 1)...])
                }
            }
            try? reader.close()
        }.start()
    }

    deinit { stop() }

    /// Every line the script has printed so far.
    public var printedLines: [String] { lines.storage.withLock { $0 } }

    /// Waits (up to `seconds`, polling) until the script has printed line `index` (0-based).
    public func line(_ index: Int, within seconds: Double = 60) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if let line = lines.storage.withLock({ $0.count > index ? $0[index] : nil }) { return line }
            guard process.isRunning else {
                throw TestServerError(
                    "\(process.arguments?.last ?? "the helper server") exited before printing line \(index)"
                )
            }
            guard ContinuousClock.now < deadline else {
                throw TestServerError("the helper server printed no line \(index) within \(seconds) s")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// The ports the script printed on its first line, by name.
    public func ports() async throws -> [String: Int] {
        let first = try await line(0)
        guard let ports = try? JSONDecoder().decode([String: Int].self, from: Data(first.utf8)) else {
            throw TestServerError("the helper server's first line is not a JSON object of ports: \(first)")
        }
        return ports
    }

    /// Stops the script: EOF on its stdin, and SIGTERM to its PID.
    public func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
    }
}
