/// Whether the engine waits briefly for the next command before it blocks, after the last
/// transfer in flight finished (docs/engine.md, "Waking the engine"). A value with no I/O: the
/// engine asks ``shouldWait()``, waits or not, and reports each wait with ``record(paid:)``.
///
/// Waiting pays where the next command follows within microseconds (a completion handler that
/// starts the next request) and only burns a core where it comes later (a serializer runs on
/// the processing queue first). So the engine waits while at least half of its last eight waits
/// saw a command, and otherwise tries once in 16 times, which brings it back when waiting pays
/// again.
struct BriefWaitPolicy {
    /// The last eight waits, a bit each (1: the command came), newest lowest. Starts as if
    /// every wait had paid.
    private var history: UInt8 = 0xFF
    /// Chances to wait that were declined since the last wait.
    private var declined = 0

    /// Whether to wait now. A declined chance counts towards the next probe.
    mutating func shouldWait() -> Bool {
        if history.nonzeroBitCount >= 4 { return true }
        declined += 1
        guard declined >= 16 else { return false }
        declined = 0
        return true
    }

    /// Records whether a wait saw the command it waited for.
    mutating func record(paid: Bool) {
        history = history << 1 | (paid ? 1 : 0)
    }
}
