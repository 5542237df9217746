public import GannetCore
public import Tracing

/// An ``EventMonitor`` that gives every task of a ``SessionManager`` a client span, with
/// OpenTelemetry's HTTP client attributes (docs/integrations.md, "swift-distributed-tracing").
///
/// Install both halves: the monitor, which fills and ends the span, and its ``interceptor``,
/// which starts the span as a child of the caller's `ServiceContext.current` and injects its
/// context into the request's headers through the tracer (`traceparent` and `tracestate` with an
/// OpenTelemetry tracer, whose propagator is W3C Trace Context by default):
///
/// ```swift
/// let tracing = TracingEventMonitor(tracer: InstrumentationSystem.tracer)
/// let manager = SessionManager(eventMonitors: [tracing])
/// manager.interceptor = tracing.interceptor
/// ```
///
/// Without the interceptor each task still gets a span, started when its first transfer is
/// created, but with no parent and nothing propagated. A retried task keeps one span (its
/// `http.request.resend_count` counts the retries, a `retry` event marks each); its context is
/// injected again into every attempt.
///
/// Attributes: `http.request.method`, `url.full` (its user part written `***` by
/// ``CredentialRedaction``), `url.scheme`, `server.address`, `server.port`,
/// `http.response.status_code`, `http.request.resend_count`, `network.protocol.version`,
/// `http.response.body.size`, and on failure `error.type` (the status code for a 4xx or 5xx, else
/// the kind of error) with the error recorded and the span's status `error`.
public final class TracingEventMonitor: EventMonitor {
    /// The queue events are handled on.
    public let queue: DispatchQueue
    /// Starts the span and injects its context into each attempt's request; install it as the
    /// manager's interceptor (first, if there are others, so that theirs see the headers).
    public let interceptor: TracingInterceptor
    private let spans: SpanTable

    /// Traces through `tracer`, by default the bootstrapped `InstrumentationSystem.tracer`.
    public init(
        tracer: any Tracer = InstrumentationSystem.tracer,
        queue: DispatchQueue = DispatchQueue(label: "gannet.tracing-monitor")
    ) {
        self.queue = queue
        spans = SpanTable(tracer: tracer)
        interceptor = TracingInterceptor(spans: spans)
    }

    // MARK: Events

    /// Starts the span here when no interceptor did, and sets the request's attributes.
    public func task(_ task: SessionTask, didCreateTransferFor request: URLRequest) {
        let span = spans.span(for: task, parent: .topLevel)
        span.attributes.setRequest(request)
        span.attributes["http.request.resend_count"] = task.retryCount > 0 ? task.retryCount : nil
    }

    /// Marks the retry with an event.
    public func task(
        _ task: SessionTask,
        willRetry attempt: Int,
        after delay: TimeInterval,
        failedAttempt: FailedAttempt
    ) {
        guard let span = spans.existingSpan(for: task) else { return }
        var attributes = SpanAttributes()
        attributes["http.request.resend_count"] = attempt - 1
        attributes["gannet.retry.delay"] = delay
        if let status = failedAttempt.statusCode { attributes["http.response.status_code"] = status }
        span.addEvent(SpanEvent(name: "retry", attributes: attributes))
    }

    /// Sets the protocol version and the body size of the last attempt.
    public func task(_ task: SessionTask, didFinishCollecting metrics: TaskMetrics) {
        guard let span = spans.existingSpan(for: task) else { return }
        if let version = metrics.httpVersion {
            // OpenTelemetry writes "1.1" and "2", libcurl "HTTP/1.1" and "HTTP/2".
            span.attributes["network.protocol.version"] =
                version.hasPrefix("HTTP/") ? String(version.dropFirst(5)) : version
        }
        span.attributes["http.response.body.size"] = Int(metrics.countOfResponseBodyBytesReceived)
    }

    /// Sets the status, records the error and ends the span.
    public func task(_ task: SessionTask, didFinishWith error: (any Error)?) {
        guard let span = spans.removeSpan(for: task) else { return }
        let status = (task.response as? HTTPURLResponse)?.statusCode
        span.attributes["http.response.status_code"] = status
        if let error {
            span.attributes["error.type"] = errorTypeName(error)
            span.recordError(CredentialRedaction.RedactedError(error))
            span.setStatus(SpanStatus(code: .error, message: CredentialRedaction.text(String(describing: error))))
        } else if let status, status >= 400 {
            // A client span with a 4xx or 5xx is an error (OpenTelemetry HTTP spans, "Status").
            span.attributes["error.type"] = "\(status)"
            span.setStatus(SpanStatus(code: .error))
        }
        span.end()
    }
}

extension SpanAttributes {
    /// The request's method, redacted URL, scheme, host and port.
    mutating func setRequest(_ request: URLRequest) {
        self["http.request.method"] = request.httpMethod ?? "GET"
        guard let url = request.url else { return }
        self["url.full"] = CredentialRedaction.url(url)
        self["url.scheme"] = url.scheme
        self["server.address"] = url.host
        self["server.port"] = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
    }
}

extension CredentialRedaction {
    /// An error whose description is the original's with credentials redacted: what a tracer
    /// exports of a recorded error is its description.
    struct RedactedError: Error, CustomStringConvertible {
        let description: String
        init(_ error: any Error) { description = CredentialRedaction.text(String(describing: error)) }
    }
}
