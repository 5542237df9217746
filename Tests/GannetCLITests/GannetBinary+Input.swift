import Foundation
import Testing

/// Ways to run `gannet` beyond ``GannetBinary/run(_:in:timeout:)`` (whose stdin is
/// `/dev/null`): with stdin a pipe or a redirected file, with environment variables on a
/// terminal, and with its peak memory measured. Each goes through a shell or Python wrapper, so
/// the child's stdin really is a pipe (`cat FILE | gannet`), a file (`gannet < FILE`), or what
/// the wrapper measures is exactly gannet.
extension GannetBinary {
    /// What the child's standard input is.
    enum Input {
        /// `printf … | gannet`: a pipe carrying `data`, closed at its end.
        case pipe(Data)
        /// `gannet < FILE`: a regular file holding `data`.
        case file(Data)
    }

    /// Runs `gannet arguments` with `stdin` as its standard input.
    static func run(
        _ arguments: [String],
        stdin: Input,
        in directory: URL? = nil,
        timeout: Duration = .seconds(60)
    ) async throws -> Result {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-stdin-\(UUID().uuidString)")
        let data: Data
        switch stdin {
        case .pipe(let bytes), .file(let bytes): data = bytes
        }
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let command = ([try location().path] + arguments).map(shellQuoted).joined(separator: " ")
        let script: String
        switch stdin {
        case .pipe: script = "cat \(shellQuoted(file.path)) | \(command)"
        case .file: script = "exec \(command) < \(shellQuoted(file.path))"
        }
        return try await run(
            executable: URL(fileURLWithPath: "/bin/sh"),
            arguments: ["-c", script],
            in: directory,
            timeout: timeout
        )
    }

    /// Runs `gannet` inside a pseudo-terminal with `environment` added (`NO_COLOR=1`).
    /// `NO_COLOR` is removed first: `swift test` sets it for the test process, and a terminal
    /// test decides for itself whether gannet sees it.
    static func runOnTerminal(_ arguments: [String], environment: [String: String]) async throws -> Result {
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let command = (["env", "-u", "NO_COLOR"] + assignments + [try location().path] + arguments).map(shellQuoted)
            .joined(separator: " ")
        return try await run(
            executable: URL(fileURLWithPath: "/usr/bin/script"),
            arguments: ["-qfec", command, "/dev/null"],
            in: nil,
            timeout: .seconds(60)
        )
    }

    /// Runs `gannet arguments` as the child of a Python wrapper that waits for it with
    /// `wait4(2)`: the kernel's own record of the child's peak resident set (`ru_maxrss`),
    /// exact however short the peak, with no polling. Returns the result (the wrapper's last
    /// stderr line removed) and the peak in bytes.
    static func runMeasuringPeakMemory(
        _ arguments: [String],
        in directory: URL? = nil,
        timeout: Duration
    ) async throws -> (result: Result, peakBytes: Int) {
        let wrapper = """
            import os, sys
            pid = os.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            _, status, usage = os.wait4(pid, 0)
            sys.stderr.write("\\ngannet-peak-rss-kib=%d\\n" % usage.ru_maxrss)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let python = ProcessInfo.processInfo.environment["GANNET_PYTHON"] ?? "python3"
        let result = try await run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [python, "-c", wrapper, try location().path] + arguments,
            in: directory,
            timeout: timeout
        )
        let marker = "\ngannet-peak-rss-kib="
        let text = result.err
        let range = try #require(
            text.range(of: marker, options: .backwards),
            "the wrapper reported no peak: \(text.suffix(500))"
        )
        let kib = try #require(Int(text[range.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)))
        let stderr = Data(text[..<range.lowerBound].utf8)
        return (Result(status: result.status, stdout: result.stdout, stderr: stderr), kib * 1024)
    }
}
