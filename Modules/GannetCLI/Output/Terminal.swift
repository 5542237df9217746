import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where output goes and whether each stream is a terminal (colours, progress bar, binary
/// guard) or a pipe/file (plain bytes).
struct Terminal: Sendable {
    let stdoutIsTerminal: Bool
    let stderrIsTerminal: Bool
    /// `NO_COLOR` is set to a non-empty value (no-color.org): no colours unless asked for.
    var noColor = false

    static var current: Terminal {
        // getenv, not ProcessInfo's environment, which copies every variable into a dictionary
        // first (docs/performance.md, "Start-up").
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        return Terminal(
            stdoutIsTerminal: isatty(STDOUT_FILENO) == 1,
            stderrIsTerminal: isatty(STDERR_FILENO) == 1,
            noColor: noColor
        )
    }

    func out(_ text: String) { Self.write(Data(text.utf8), to: STDOUT_FILENO) }
    func out(_ data: Data) { Self.write(data, to: STDOUT_FILENO) }
    func err(_ text: String) { Self.write(Data(text.utf8), to: STDERR_FILENO) }

    /// Writes all of `data`, retrying on `EINTR` and short writes. A closed pipe ends the
    /// process through `SIGPIPE`, as for any Unix filter (`gannet … | head`).
    static func write(_ data: Data, to descriptor: Int32) {
        data.withUnsafeBytes { buffer in
            guard var pointer = buffer.baseAddress else { return }
            var remaining = buffer.count
            while remaining > 0 {
                let written = Glibc.write(descriptor, pointer, remaining)
                if written < 0 {
                    if errno == EINTR { continue }
                    return
                }
                pointer += written
                remaining -= written
            }
        }
    }
}
