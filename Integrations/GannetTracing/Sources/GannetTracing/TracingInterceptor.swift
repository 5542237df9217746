public import GannetCore
import Tracing

/// The half of ``TracingEventMonitor`` that runs before each attempt: it starts the task's span
/// (a child of `ServiceContext.current` where the task was resumed, which the adapter's Swift task
/// inherits) and injects the span's context into the request's headers through the tracer's
/// propagation (docs/interceptors.md for where adapters run, docs/integrations.md).
///
/// It only adapts; its retry half keeps the default (never retry).
public struct TracingInterceptor: RequestInterceptor {
    let spans: SpanTable

    /// Starts the span on the first attempt, then writes its context into `request`'s headers.
    public func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
        let span = spans.span(for: task, parent: ServiceContext.current ?? .topLevel)
        // A cancel() during the adapter completes the task at once (docs/interceptors.md,
        // "Cancellation"), and the monitor may already have handled its end, finding no span:
        // the span started here is then ended here. Whichever of the two removes it ends it.
        if task.state == .completed, let orphan = spans.removeSpan(for: task) {
            orphan.attributes["error.type"] = "cancelled"
            orphan.end()
        }
        var request = request
        // Each attempt starts from the original request, so a header of a previous attempt
        // never stays behind (docs/interceptors.md, "Adapt").
        spans.tracer.inject(span.context, into: &request, using: HeaderInjector())
        return request
    }
}

/// Writes a propagated value as a request header, replacing one of the same name.
struct HeaderInjector: Injector {
    func inject(_ value: String, forKey key: String, into request: inout URLRequest) {
        request.setValue(value, forHTTPHeaderField: key)
    }
}
