/// A transfer's counts and times: the body bytes received and to be sent, the metrics, when
/// it started and last moved, and when the progress handlers are next called. Updated on the
/// engine thread as libcurl reports; read into the outcome when the transfer ends.
struct TransferCounters {
    /// Body bytes received (decoded), over all parts of a mixed-replace body.
    var receivedBytes: Int64 = 0
    /// The body length the hop sends, `-1` when unknown.
    var expectedToSend: Int64 = -1
    var metrics = TaskMetrics()
    var progressThrottle = ProgressThrottle()
    let startedAt: UInt64
    /// The last time bytes moved, for the idle timeout.
    private(set) var lastActivity: UInt64
    /// Idle timeout in nanoseconds: the request's `timeoutInterval`, else the configuration's.
    let idleTimeout: UInt64

    init(idleTimeout: UInt64, now: UInt64) {
        self.idleTimeout = idleTimeout
        startedAt = now
        lastActivity = now
    }

    mutating func touch(now: UInt64) { lastActivity = now }

    func isIdleExpired(now: UInt64) -> Bool { now &- lastActivity > idleTimeout }

    /// Seconds since the transfer started.
    func elapsed(now: UInt64) -> Double { Double(now &- startedAt) / 1e9 }
}
