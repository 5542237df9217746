/// An ``EventMonitor`` that writes one line per event, for debugging and audit logs.
///
/// Credentials never reach the log: the values of the headers its ``redaction`` names
/// (``HeaderRedaction/default``: `Authorization`, `Cookie`, `Set-Cookie`, `X-API-Key`,
/// `X-Auth-Token`, any name with `token` or `secret` in it …), the user part of a URL
/// (`user:password@`, `token@`) and any such URL quoted in an error are written as `***`.
/// Bodies are not logged, only their sizes.
///
/// ```swift
/// let manager = SessionManager(eventMonitors: [LoggingEventMonitor()])          // to stderr
/// let lines = LoggingEventMonitor { line in logger.debug("\(line)") }          // anywhere
/// var redaction = HeaderRedaction.default
/// redaction.names.insert("X-Tenant")                                            // yours too
/// let strict = LoggingEventMonitor(redacting: redaction) { line in print(line) }
/// ```
///
/// ```text
/// [Gannet] #7 created GET http://api.example/users
/// [Gannet] #7 sending GET http://api.example/users [Accept: application/json, Authorization: ***]
/// [Gannet] #7 response 200 [Content-Type: application/json, Set-Cookie: ***]
/// [Gannet] #7 received 512 bytes
/// ```
public struct LoggingEventMonitor: EventMonitor {
    /// The queue lines are formatted and written on.
    public let queue: DispatchQueue
    /// The headers whose values are written `***`.
    public let redaction: HeaderRedaction
    private let write: @Sendable (String) -> Void

    /// Hands each line (without a newline) to `write`, on `queue`, with the values of the
    /// headers `redaction` names written `***`.
    public init(
        redacting redaction: HeaderRedaction = .default,
        queue: DispatchQueue = DispatchQueue(label: "gannet.logging-monitor"),
        write: @escaping @Sendable (String) -> Void
    ) {
        self.queue = queue
        self.redaction = redaction
        self.write = write
    }

    /// Writes each line, newline-terminated, to `fileHandle` (standard error by default).
    public init(
        fileHandle: FileHandle = .standardError,
        redacting redaction: HeaderRedaction = .default,
        queue: DispatchQueue = DispatchQueue(label: "gannet.logging-monitor")
    ) {
        self.init(redacting: redaction, queue: queue) { line in
            fileHandle.write(Data((line + "\n").utf8))
        }
    }

    private func log(_ task: SessionTask, _ message: String) {
        write("[Gannet] #\(task.taskIdentifier) \(message)")
    }

    private static func describe(_ request: URLRequest) -> String {
        let url = request.url.map(CredentialRedaction.url) ?? "(no URL)"
        return "\(request.httpMethod ?? "GET") \(url)"
    }

    private func describe(headers: [AnyHashable: Any]) -> String {
        let fields = headers.compactMap { name, value -> (String, String)? in
            guard let name = name as? String else { return nil }
            return (name, redaction.value("\(value)", ofHeader: name))
        }
        return "["
            + fields.sorted { $0.0.lowercased() < $1.0.lowercased() }.map { "\($0): \($1)" }.joined(separator: ", ")
            + "]"
    }

    private static func describe(_ error: any Error) -> String {
        CredentialRedaction.text(String(describing: error))
    }

    /// Logs the method and URL.
    public func task(_ task: SessionTask, didCreateInitialRequest request: URLRequest) {
        log(task, "created \(Self.describe(request))")
    }

    /// Logs both requests.
    public func task(_ task: SessionTask, didAdaptInitialRequest initial: URLRequest, to adapted: URLRequest) {
        log(task, "adapted \(Self.describe(initial)) to \(Self.describe(adapted))")
    }

    /// Logs the error.
    public func task(_ task: SessionTask, didFailToAdaptInitialRequest initial: URLRequest, withError error: any Error)
    {
        log(task, "adapter failed for \(Self.describe(initial)): \(Self.describe(error))")
    }

    /// Logs the request and its headers.
    public func task(_ task: SessionTask, didCreateTransferFor request: URLRequest) {
        log(task, "sending \(Self.describe(request)) \(describe(headers: request.allHTTPHeaderFields ?? [:]))")
    }

    /// Logs the event.
    public func taskDidResume(_ task: SessionTask) { log(task, "resumed") }
    /// Logs the event.
    public func taskDidSuspend(_ task: SessionTask) { log(task, "suspended") }
    /// Logs the event.
    public func taskDidCancel(_ task: SessionTask) { log(task, "cancelled") }

    /// Logs the status and the next request.
    public func task(_ task: SessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest: URLRequest)
    {
        log(task, "redirect \(response.statusCode) to \(Self.describe(newRequest))")
    }

    /// Logs the host and the chain length.
    public func task(_ task: SessionTask, didReceiveServerTrustChallenge trust: ServerTrust) {
        log(
            task,
            "server trust challenge for \(trust.host):\(trust.port), \(trust.certificateChain.count) certificates"
        )
    }

    /// Logs the counts.
    public func task(
        _ task: SessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        log(task, "sent \(bytesSent) bytes (\(totalBytesSent) of \(totalBytesExpectedToSend))")
    }

    /// Logs the status and the headers.
    public func task(_ task: SessionTask, didReceiveResponse response: HTTPURLResponse) {
        log(task, "response \(response.statusCode) \(describe(headers: response.allHeaderFields))")
    }

    /// Logs the size.
    public func task(_ task: SessionTask, didReceiveData data: Data) {
        log(task, "received \(data.count) bytes")
    }

    /// Logs the main timings.
    public func task(_ task: SessionTask, didFinishCollecting metrics: TaskMetrics) {
        let total = String(format: "%.3f", metrics.totalDuration)
        let firstByte = String(format: "%.3f", metrics.timeToFirstByte)
        log(
            task,
            "metrics total \(total) s, first byte \(firstByte) s, \(metrics.redirectCount) redirects, "
                + "\(metrics.httpVersion ?? "-"), \(metrics.reusedConnection ? "reused" : "new") connection, "
                + "\(metrics.countOfRequestBodyBytesSent) bytes sent, \(metrics.countOfResponseBodyBytesReceived) received"
        )
    }

    /// Logs the attempt, the delay, and the failed attempt's error or status code.
    public func task(
        _ task: SessionTask,
        willRetry attempt: Int,
        after delay: TimeInterval,
        failedAttempt: FailedAttempt
    ) {
        let cause =
            failedAttempt.error.map(Self.describe) ?? failedAttempt.statusCode.map { "HTTP \($0)" } ?? "no response"
        log(task, "retry as attempt \(attempt) in \(delay) s after: \(cause)")
    }

    /// Logs the outcome and the value's type (never the value: it may hold personal data).
    public func task<Output: Sendable>(_ task: SessionTask, didSerialize response: DataResponse<Output>) {
        switch response.result {
        case .success: log(task, "serialized \(Output.self)")
        // The serializer also passes a transport error on, so this is not always its own failure.
        case .failure(let error): log(task, "serialized as failure: \(Self.describe(error))")
        }
    }

    /// Logs the outcome.
    public func task(_ task: SessionTask, didFinishWith error: (any Error)?) {
        log(task, error.map { "finished with error: \(Self.describe($0))" } ?? "finished")
    }
}
