import Foundation
internal import Synchronization

/// A one-line progress bar on stderr for long transfers: shown only on a terminal, only once
/// a transfer has run for `delay` seconds (downloads: at once), redrawn at most ten times a
/// second with a carriage return, and blanked with spaces when the transfer ends.
final class ProgressBar: Sendable {
    private let terminal: Terminal
    private let label: String
    private let delay: TimeInterval
    private let state: Mutex<State>

    private struct State {
        var started = Date()
        var lastDraw = Date.distantPast
        /// The width of the line on screen, blanked before a shorter one and at the end.
        var drawnWidth = 0
        var finished = false
    }

    init(terminal: Terminal, label: String, delay: TimeInterval) {
        self.terminal = terminal
        self.label = label
        self.delay = delay
        state = Mutex(State())
    }

    var isEnabled: Bool { terminal.stderrIsTerminal }

    /// Records progress: `completed` of `total` bytes (`total` below 1 when unknown).
    func update(completed: Int64, total: Int64) {
        guard isEnabled else { return }
        let now = Date()
        let line: String? = state.withLock { state in
            guard !state.finished, now.timeIntervalSince(state.started) >= delay,
                now.timeIntervalSince(state.lastDraw) >= 0.1
            else { return nil }
            state.lastDraw = now
            var line = Self.line(
                label: label,
                completed: completed,
                total: total,
                elapsed: now.timeIntervalSince(state.started)
            )
            let width = line.count
            // Spaces rather than an erase sequence: the bar writes no escape codes (NO_COLOR
            // users, terminals that print them).
            if width < state.drawnWidth { line += String(repeating: " ", count: state.drawnWidth - width) }
            state.drawnWidth = max(width, state.drawnWidth)
            return line
        }
        if let line { terminal.err("\r" + line) }
    }

    /// Erases the bar.
    func finish() {
        let width = state.withLock { state -> Int in
            state.finished = true
            return state.drawnWidth
        }
        if width > 0 { terminal.err("\r" + String(repeating: " ", count: width) + "\r") }
    }

    /// ` 45% [=========>           ] 1.2 MB / 2.6 MB  3.4 MB/s`
    static func line(label: String, completed: Int64, total: Int64, elapsed: TimeInterval) -> String {
        let rate = elapsed > 0 ? Double(completed) / elapsed : 0
        guard total > 0 else {
            return "\(label) \(ByteCount.text(completed))  \(ByteCount.text(Int64(rate)))/s"
        }
        let fraction = min(1, Double(completed) / Double(total))
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar =
            String(repeating: "=", count: filled)
            + (filled < width ? ">" + String(repeating: " ", count: width - filled - 1) : "")
        let percent = String(Int(fraction * 100)).leftPadded(to: 3, with: " ")
        return
            "\(label) \(percent)% [\(bar)] \(ByteCount.text(completed)) / \(ByteCount.text(total))  \(ByteCount.text(Int64(rate)))/s"
    }
}

/// Human-readable sizes: `512 B`, `1.5 kB`, `3.2 MB` (powers of 1000, as httpie prints them).
enum ByteCount {
    static func text(_ bytes: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}
