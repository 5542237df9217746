import GannetCore
import Synchronization
import Tracing

/// The open span of each task, shared by the monitor and its interceptor: whichever reaches a
/// task first starts its span (the interceptor, before the first transfer, when installed) and
/// the monitor ends it when the task finishes.
final class SpanTable: Sendable {
    let tracer: any Tracer
    private let spans = Mutex<[Int: any Span]>([:])

    init(tracer: any Tracer) { self.tracer = tracer }

    /// The task's span, started now as a child of `parent` if it has none.
    func span(for task: SessionTask, parent: ServiceContext) -> any Span {
        spans.withLock { spans in
            if let span = spans[task.taskIdentifier] { return span }
            let span = tracer.startSpan(
                task.originalRequest?.httpMethod ?? "GET",
                context: parent,
                ofKind: .client
            )
            if let request = task.originalRequest { span.attributes.setRequest(request) }
            spans[task.taskIdentifier] = span
            return span
        }
    }

    func existingSpan(for task: SessionTask) -> (any Span)? {
        spans.withLock { $0[task.taskIdentifier] }
    }

    func removeSpan(for task: SessionTask) -> (any Span)? {
        spans.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }
}
