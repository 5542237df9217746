public import GannetCore
public import Logging
import Synchronization

/// An ``EventMonitor`` that logs each task of a ``SessionManager`` through a swift-log `Logger`:
/// one line when it starts, one per retry and redirect, one when it ends, each with the task's
/// metadata (docs/integrations.md, "swift-log").
///
/// Credentials never reach the log: URLs go through ``CredentialRedaction`` (the user part of
/// `https://user:password@host/` is written `***`), errors are described through it too, and
/// header values are never logged. Levels follow async-http-client: `debug` for the start and
/// for redirects, `info` when a task completes (``Levels``), `warning` when it fails.
///
/// ```swift
/// let monitor = LoggerEventMonitor(logger: Logger(label: "app.http"))
/// let manager = SessionManager(eventMonitors: [monitor])
/// let task = manager.dataTask(with: request, serializer: .passthrough) { _ in }
/// monitor.setLogger(requestLogger, for: task)      // this task only, before resume()
/// task.resume()
/// ```
public final class LoggerEventMonitor: EventMonitor {
    /// The level of each kind of line.
    public struct Levels: Sendable {
        /// A task started (its first resume). Default `debug`.
        public var start: Logger.Level = .debug
        /// A redirect will be followed. Default `debug`.
        public var redirect: Logger.Level = .debug
        /// An attempt failed and will be retried. Default `info`.
        public var retry: Logger.Level = .info
        /// The task completed with a response, whatever its status. Default `info`.
        public var completion: Logger.Level = .info
        /// The task was cancelled. Default `debug`: the application asked for it.
        public var cancellation: Logger.Level = .debug
        /// The task failed: a transport, adapter or serialization error. Default `warning`.
        public var failure: Logger.Level = .warning

        /// The defaults above.
        public init() {}
    }

    /// The metadata keys of every line.
    public enum MetadataKey {
        /// The task's ``SessionTask/taskIdentifier``.
        public static let taskID = "gannet-task-id"
        /// The request method.
        public static let method = "gannet-method"
        /// The request URL, its credentials redacted.
        public static let url = "gannet-url"
        /// The response status code.
        public static let status = "gannet-status"
        /// The last attempt's total duration in seconds (TaskMetrics' `totalDuration`).
        public static let duration = "gannet-duration"
        /// Request body bytes sent.
        public static let bytesSent = "gannet-bytes-sent"
        /// Response body bytes received.
        public static let bytesReceived = "gannet-bytes-received"
        /// How many times the task was retried.
        public static let retryCount = "gannet-retry-count"
        /// The error, described with its credentials redacted.
        public static let error = "gannet-error"
    }

    /// The queue events are logged on: its own, so a slow log handler delays only this monitor.
    public let queue: DispatchQueue
    /// The levels used.
    public let levels: Levels
    private let logger: Logger
    /// Per task: the logger a caller chose for it and the metrics of its last attempt.
    private let records = Mutex<[Int: Record]>([:])

    private struct Record {
        var logger: Logger?
        var metrics: TaskMetrics?
        var started = false
    }

    /// Logs every task through `logger`, unless ``setLogger(_:for:)`` chose another for it.
    public init(
        logger: Logger,
        levels: Levels = Levels(),
        queue: DispatchQueue = DispatchQueue(label: "gannet.logger-monitor")
    ) {
        self.logger = logger
        self.levels = levels
        self.queue = queue
    }

    /// Logs `task` through `logger` (a request-scoped logger, with its own metadata and level)
    /// instead of the monitor's. Call it before the task's `resume()`: the start line is written
    /// when the resume reaches the monitor. The logger is dropped when the task finishes; one
    /// given for a task that is then never resumed stays until the monitor goes.
    public func setLogger(_ logger: Logger, for task: SessionTask) {
        records.withLock { $0[task.taskIdentifier, default: Record()].logger = logger }
    }

    // MARK: Events

    /// Logs the start, the first time the task is resumed.
    public func taskDidResume(_ task: SessionTask) {
        let (logger, first) = records.withLock { records -> (Logger, Bool) in
            let record = records[task.taskIdentifier, default: Record()]
            records[task.taskIdentifier, default: Record()].started = true
            return (record.logger ?? self.logger, !record.started)
        }
        guard first else { return }
        logger.log(level: levels.start, "Gannet request started", metadata: requestMetadata(task))
    }

    /// Logs the redirect's status and target.
    public func task(_ task: SessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest: URLRequest)
    {
        var metadata = requestMetadata(task)
        metadata[MetadataKey.status] = "\(response.statusCode)"
        metadata["gannet-location"] = newRequest.url.map { .string(CredentialRedaction.url($0)) }
        logger(for: task).log(level: levels.redirect, "Gannet request redirected", metadata: metadata)
    }

    /// Logs the failed attempt and the delay before the next.
    public func task(
        _ task: SessionTask,
        willRetry attempt: Int,
        after delay: TimeInterval,
        failedAttempt: FailedAttempt
    ) {
        var metadata = requestMetadata(task)
        metadata[MetadataKey.retryCount] = "\(attempt - 1)"
        metadata["gannet-retry-delay"] = "\(delay)"
        if let status = failedAttempt.statusCode { metadata[MetadataKey.status] = "\(status)" }
        if let error = failedAttempt.error { metadata[MetadataKey.error] = .string(Self.describe(error)) }
        logger(for: task).log(level: levels.retry, "Gannet request will be retried", metadata: metadata)
    }

    /// Keeps the metrics for the completion line.
    public func task(_ task: SessionTask, didFinishCollecting metrics: TaskMetrics) {
        records.withLock { $0[task.taskIdentifier, default: Record()].metrics = metrics }
    }

    /// Logs the outcome: status, duration, bytes and retries, or the error.
    public func task(_ task: SessionTask, didFinishWith error: (any Error)?) {
        let record = records.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        let logger = record?.logger ?? self.logger
        var metadata = requestMetadata(task)
        metadata[MetadataKey.retryCount] = "\(task.retryCount)"
        if let status = (task.response as? HTTPURLResponse)?.statusCode {
            metadata[MetadataKey.status] = "\(status)"
        }
        if let metrics = record?.metrics {
            metadata[MetadataKey.duration] = .string(String(format: "%.6f", metrics.totalDuration))
            metadata[MetadataKey.bytesSent] = "\(metrics.countOfRequestBodyBytesSent)"
            metadata[MetadataKey.bytesReceived] = "\(metrics.countOfResponseBodyBytesReceived)"
        }
        guard let error else {
            logger.log(level: levels.completion, "Gannet request completed", metadata: metadata)
            return
        }
        metadata[MetadataKey.error] = .string(Self.describe(error))
        if (error as? URLError)?.code == .cancelled {
            logger.log(level: levels.cancellation, "Gannet request cancelled", metadata: metadata)
        } else {
            logger.log(level: levels.failure, "Gannet request failed", metadata: metadata)
        }
    }

    // MARK: Helpers

    private func logger(for task: SessionTask) -> Logger {
        records.withLock { $0[task.taskIdentifier]?.logger } ?? logger
    }

    private func requestMetadata(_ task: SessionTask) -> Logger.Metadata {
        let request = task.originalRequest
        var metadata: Logger.Metadata = [
            MetadataKey.taskID: "\(task.taskIdentifier)",
            MetadataKey.method: .string(request?.httpMethod ?? "GET"),
        ]
        if let url = request?.url { metadata[MetadataKey.url] = .string(CredentialRedaction.url(url)) }
        return metadata
    }

    /// An error's description with every URL's user part written `***` (docs/monitors.md, "What
    /// is redacted").
    private static func describe(_ error: any Error) -> String {
        CredentialRedaction.text(String(describing: error))
    }
}
