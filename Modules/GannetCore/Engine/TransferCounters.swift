internal import CCurl

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

    /// The idle timeout of a transfer sending `request`, in seconds: the request's
    /// `timeoutInterval` when the caller chose one, else the session's (`session`). URLRequest's
    /// default is 60 s, so only a different value says the caller chose it.
    static func idleTimeout(of request: URLRequest, session: Double) -> Double {
        // Read once: each read goes through `NSURLRequest`'s accessor (about 100 instructions).
        let requested = request.timeoutInterval
        let chosen = requested > 0 && requested != defaultRequestTimeout
        return max(chosen ? requested : session, 0.001)
    }

    private static let defaultRequestTimeout = URLRequest(url: URL(fileURLWithPath: "/")).timeoutInterval

    func isIdleExpired(now: UInt64) -> Bool { now &- lastActivity > idleTimeout }

    /// Seconds since the transfer started.
    func elapsed(now: UInt64) -> Double { Double(now &- startedAt) / 1e9 }

    /// The metrics once the transfer ends `now`, having sent `sent` body bytes on its last hop.
    mutating func finalMetrics(sent: Int64, now: UInt64) -> TaskMetrics {
        metrics.totalDuration = elapsed(now: now)
        metrics.countOfRequestBodyBytesSent = sent
        metrics.countOfResponseBodyBytesReceived = receivedBytes
        return metrics
    }

    /// Reads the timings and the connection of the hop that ended on `easy` into the metrics.
    mutating func collectMetrics(from easy: EasyHandle) {
        func seconds(_ info: CURLINFO) -> TimeInterval { Double(easy.info(offset: info)) / 1e6 }
        metrics.nameLookupDuration = seconds(CURLINFO_NAMELOOKUP_TIME_T)
        metrics.connectDuration = seconds(CURLINFO_CONNECT_TIME_T)
        metrics.secureConnectionDuration = seconds(CURLINFO_APPCONNECT_TIME_T)
        metrics.timeToFirstByte = seconds(CURLINFO_STARTTRANSFER_TIME_T)
        metrics.remoteAddress = easy.info(string: CURLINFO_PRIMARY_IP)
        metrics.remotePort = easy.info(long: CURLINFO_PRIMARY_PORT)
        metrics.reusedConnection = easy.info(long: CURLINFO_NUM_CONNECTS) == 0
        switch easy.info(long: CURLINFO_HTTP_VERSION) {
        case Int(CURL_HTTP_VERSION_1_0): metrics.httpVersion = "HTTP/1.0"
        case Int(CURL_HTTP_VERSION_1_1): metrics.httpVersion = "HTTP/1.1"
        case Int(CURL_HTTP_VERSION_2_0): metrics.httpVersion = "HTTP/2"
        case Int(CURL_HTTP_VERSION_3): metrics.httpVersion = "HTTP/3"
        default: break
        }
    }
}
