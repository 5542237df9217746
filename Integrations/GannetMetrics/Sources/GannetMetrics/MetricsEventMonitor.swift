public import CoreMetrics
public import GannetCore
import Synchronization

/// An ``EventMonitor`` that records every task of a ``SessionManager`` through swift-metrics
/// (docs/integrations.md, "swift-metrics").
///
/// The names and dimensions are OpenTelemetry's HTTP client conventions where they have one, so
/// a dashboard built for another client reads these too:
///
/// | Metric | Kind | Dimensions |
/// |---|---|---|
/// | `http.client.request.duration` | timer (the last attempt) | method, status class, `server.address`, `error.type` |
/// | `http.client.requests` | counter | the same |
/// | `http.client.active_requests` | meter (tasks resumed, not yet finished) | `server.address` |
/// | `http.client.request.body.size`, `http.client.response.body.size` | recorder (bytes) | method, `server.address` |
/// | `gannet.client.errors` | counter | `error.type`, `server.address` |
/// | `gannet.client.retries` | counter | method, `server.address` |
/// | `gannet.client.connections` | counter (per task, its last attempt's connection) | `connection.reused` (`true`, `false`) |
/// | `gannet.client.pool.max_connections_per_host` | meter (the manager's setting, `0` unlimited) | — |
///
/// The status class is `1xx` … `5xx`, never the code itself, and the URL is never a dimension,
/// only its host: dimensions multiply series, and a URL may carry a credential or an ID.
public final class MetricsEventMonitor: EventMonitor {
    /// The metric labels.
    public enum Label {
        /// The last attempt's total duration, as a timer.
        public static let duration = "http.client.request.duration"
        /// One per finished task.
        public static let requests = "http.client.requests"
        /// Tasks resumed and not yet finished.
        public static let activeRequests = "http.client.active_requests"
        /// Request body bytes sent per task.
        public static let requestBodySize = "http.client.request.body.size"
        /// Response body bytes received per task.
        public static let responseBodySize = "http.client.response.body.size"
        /// One per failed task, by GannetCore's `errorTypeName(_:)`.
        public static let errors = "gannet.client.errors"
        /// One per retry.
        public static let retries = "gannet.client.retries"
        /// One per task, by whether its last attempt opened a connection or reused one.
        public static let connections = "gannet.client.connections"
        /// The manager's `maximumConnectionsPerHost`.
        public static let poolSize = "gannet.client.pool.max_connections_per_host"
    }

    /// The queue events are recorded on.
    public let queue: DispatchQueue
    private let factory: any MetricsFactory
    private let records = Mutex<[Int: Record]>([:])

    private struct Record {
        var metrics: TaskMetrics?
        var active: Meter?
    }

    /// Records through `factory` (`MetricsSystem.factory`, the bootstrapped backend, by default).
    /// `configuration`, the manager's, gives the pool size gauge.
    public init(
        configuration: SessionConfiguration = .default,
        factory: any MetricsFactory = MetricsSystem.factory,
        queue: DispatchQueue = DispatchQueue(label: "gannet.metrics-monitor")
    ) {
        self.factory = factory
        self.queue = queue
        Meter(label: Label.poolSize, factory: factory).set(configuration.maximumConnectionsPerHost)
    }

    // MARK: Events

    /// Counts the task as active, the first time it is resumed.
    public func taskDidResume(_ task: SessionTask) {
        let meter = records.withLock { records -> Meter? in
            guard records[task.taskIdentifier]?.active == nil else { return nil }
            let meter = Meter(label: Label.activeRequests, dimensions: hostDimensions(task), factory: factory)
            records[task.taskIdentifier, default: Record()].active = meter
            return meter
        }
        meter?.increment()
    }

    /// Counts the retry.
    public func task(
        _ task: SessionTask,
        willRetry attempt: Int,
        after delay: TimeInterval,
        failedAttempt: FailedAttempt
    ) {
        Counter(label: Label.retries, dimensions: methodDimensions(task), factory: factory).increment()
    }

    /// Keeps the metrics for the completion and counts the connection.
    public func task(_ task: SessionTask, didFinishCollecting metrics: TaskMetrics) {
        records.withLock { $0[task.taskIdentifier, default: Record()].metrics = metrics }
        Counter(
            label: Label.connections,
            dimensions: [("connection.reused", metrics.reusedConnection ? "true" : "false")],
            factory: factory
        ).increment()
    }

    /// Records the duration, the sizes, the count by status class, and the error.
    public func task(_ task: SessionTask, didFinishWith error: (any Error)?) {
        let record = records.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        record?.active?.decrement()
        var dimensions = methodDimensions(task)
        if let status = (task.response as? HTTPURLResponse)?.statusCode {
            dimensions.append(("http.response.status_class", "\(status / 100)xx"))
        }
        if let error {
            let type = errorTypeName(error)
            dimensions.append(("error.type", type))
            Counter(label: Label.errors, dimensions: [("error.type", type)] + hostDimensions(task), factory: factory)
                .increment()
        }
        Counter(label: Label.requests, dimensions: dimensions, factory: factory).increment()
        guard let metrics = record?.metrics else { return }
        CoreMetrics.Timer(label: Label.duration, dimensions: dimensions, factory: factory)
            .recordNanoseconds(Int64((metrics.totalDuration * 1e9).rounded()))
        Recorder(label: Label.requestBodySize, dimensions: methodDimensions(task), factory: factory)
            .record(metrics.countOfRequestBodyBytesSent)
        Recorder(label: Label.responseBodySize, dimensions: methodDimensions(task), factory: factory)
            .record(metrics.countOfResponseBodyBytesReceived)
    }

    // MARK: Dimensions

    private func hostDimensions(_ task: SessionTask) -> [(String, String)] {
        [("server.address", task.originalRequest?.url?.host ?? "")]
    }

    private func methodDimensions(_ task: SessionTask) -> [(String, String)] {
        [("http.request.method", task.originalRequest?.httpMethod ?? "GET")] + hostDimensions(task)
    }
}
