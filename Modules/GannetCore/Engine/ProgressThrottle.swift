/// Decides when progress handlers are called: at most every 50 ms, and always for the final
/// report. The task's byte counters are updated on every chunk; only the handlers (which build
/// and post `Progress` updates) are throttled.
struct ProgressThrottle {
    static let interval: UInt64 = 50_000_000
    private var lastReport: UInt64 = 0

    /// Whether a report at `now` (monotonic nanoseconds) should reach the handlers, and if so
    /// records it.
    mutating func shouldReport(now: UInt64, final: Bool) -> Bool {
        guard final || now &- lastReport > Self.interval else { return false }
        lastReport = now
        return true
    }
}
