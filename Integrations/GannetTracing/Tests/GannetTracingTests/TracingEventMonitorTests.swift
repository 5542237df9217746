import Foundation
import GannetCore
import GannetTestSupport
import GannetTracing
import InMemoryTracing
import Synchronization
import Testing
import Tracing

/// InMemoryTracer's spans with W3C Trace Context propagation, as an OpenTelemetry tracer's
/// default propagator writes it: `traceparent: 00-<trace id>-<span id>-01` and the `tracestate`
/// of the context. The tracer's IDs are hex of W3C's lengths (32 and 16 digits).
struct W3CInMemoryTracer: Tracer {
    let memory = InMemoryTracer(
        idGenerator: .init(
            nextTraceID: {
                String(format: "%016llx%016llx", UInt64.random(in: 1...UInt64.max), UInt64.random(in: 0...UInt64.max))
            },
            nextSpanID: { String(format: "%016llx", UInt64.random(in: 1...UInt64.max)) }
        )
    )
    static let traceState = "gannet=t61rcWkgMzE"

    func startSpan<Instant: TracerInstant>(
        _ operationName: String,
        context: @autoclosure () -> ServiceContext,
        ofKind kind: SpanKind,
        at instant: @autoclosure () -> Instant,
        function: String,
        file fileID: String,
        line: UInt
    ) -> InMemorySpan {
        memory.startSpan(
            operationName,
            context: context(),
            ofKind: kind,
            at: instant(),
            function: function,
            file: fileID,
            line: line
        )
    }

    func activeSpan(identifiedBy context: ServiceContext) -> InMemorySpan? { memory.activeSpan(identifiedBy: context) }
    func forceFlush() { memory.forceFlush() }

    func extract<Carrier, Extract: Extractor>(
        _ carrier: Carrier,
        into context: inout ServiceContext,
        using extractor: Extract
    )
    where Extract.Carrier == Carrier {}

    func inject<Carrier, Inject: Injector>(
        _ context: ServiceContext,
        into carrier: inout Carrier,
        using injector: Inject
    )
    where Inject.Carrier == Carrier {
        guard let span = context.inMemorySpanContext else { return }
        injector.inject("00-\(span.traceID)-\(span.spanID)-01", forKey: "traceparent", into: &carrier)
        injector.inject(Self.traceState, forKey: "tracestate", into: &carrier)
    }
}

/// An adapter that waits until its Swift task is cancelled (by the task's cancel()), then
/// returns the request unchanged.
final class AdapterGate: RequestAdapter {
    let entered = Atomic<Bool>(false)
    func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
        entered.store(true, ordering: .sequentiallyConsistent)
        while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
        return request
    }
}

/// httpbin's `/headers`: the request's headers as it received them.
struct EchoedHeaders: Decodable {
    let headers: [String: String]
}

func waitForFinishedSpans(_ tracer: InMemoryTracer, count: Int) async -> [FinishedInMemorySpan] {
    _ = await eventually { tracer.finishedSpans.count >= count }
    return tracer.finishedSpans
}

@Suite("TracingEventMonitor")
struct TracingEventMonitorTests {
    @Test(
        "a request gets a client span with OpenTelemetry's HTTP attributes, a child of the caller's span, its traceparent and tracestate sent"
    )
    func clientSpanAndPropagation() async throws {
        let servers = try TestServers.shared()
        let tracer = W3CInMemoryTracer()
        let tracing = TracingEventMonitor(tracer: tracer)
        let manager = SessionManager(eventMonitors: [tracing])
        manager.interceptor = tracing.interceptor
        var components = URLComponents(
            url: servers.httpbin.appendingPathComponent("headers"),
            resolvingAgainstBaseURL: false
        )!
        components.user = "alice"
        components.password = "s3cret"
        let url = components.url!

        let parent = tracer.startSpan("parent operation", context: .topLevel)
        let response = await ServiceContext.$current.withValue(parent.context) {
            await manager.response(for: URLRequest(url: url), serializer: .passthrough)
        }
        parent.end()
        let echoed = try JSONDecoder().decode(EchoedHeaders.self, from: try #require(response.value))
        #expect(response.statusCode == 200)

        let spans = await waitForFinishedSpans(tracer.memory, count: 2)
        let span = try #require(spans.first { $0.kind == .client })
        #expect(span.operationName == "GET")
        #expect(span.traceID == parent.context.inMemorySpanContext?.traceID)
        #expect(span.parentSpanID == parent.context.inMemorySpanContext?.spanID)
        #expect(span.attributes["http.request.method"]?.toSpanAttribute() == "GET")
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(span.attributes["server.address"]?.toSpanAttribute() == .string(servers.httpbin.host!))
        #expect(span.attributes["server.port"]?.toSpanAttribute() == .int64(Int64(servers.httpbin.port!)))
        #expect(span.attributes["url.scheme"]?.toSpanAttribute() == "http")
        let full = try #require(span.attributes["url.full"]?.toSpanAttribute())
        #expect("\(full)".contains("***@127.0.0.1"))
        #expect(!"\(full)".contains("s3cret") && !"\(full)".contains("alice"))
        #expect(span.attributes["error.type"] == nil)
        #expect(span.status == nil)

        // The server saw the client span's context, as W3C Trace Context writes it.
        let traceparent = try #require(echoed.headers["Traceparent"])
        #expect(traceparent == "00-\(span.traceID)-\(span.spanID)-01")
        #expect(traceparent.wholeMatch(of: /00-[0-9a-f]{32}-[0-9a-f]{16}-01/) != nil)
        #expect(echoed.headers["Tracestate"] == W3CInMemoryTracer.traceState)
        manager.invalidateAndCancel()
    }

    @Test(
        "a 404 ends the span with status error and error.type 404; a retried 503 keeps one span with its resend count"
    )
    func httpErrorsAndRetries() async throws {
        let servers = try TestServers.shared()
        let tracer = InMemoryTracer()
        let tracing = TracingEventMonitor(tracer: tracer)
        let manager = SessionManager(eventMonitors: [tracing])
        manager.interceptor = Interceptor(interceptors: [
            tracing.interceptor, RetryPolicy(retryLimit: 1, exponentialBackoffScale: 0, jitter: 0),
        ])

        #expect(
            await manager.response(
                for: URLRequest(url: servers.httpbin.appendingPathComponent("status/404")),
                serializer: .passthrough
            ).statusCode == 404
        )
        let notFound = try #require(await waitForFinishedSpans(tracer, count: 1).first)
        #expect(notFound.status?.code == .error)
        #expect(notFound.attributes["error.type"]?.toSpanAttribute() == "404")
        #expect(notFound.attributes["http.response.status_code"]?.toSpanAttribute() == 404)

        tracer.clearFinishedSpans()
        #expect(
            await manager.response(
                for: URLRequest(url: servers.httpbin.appendingPathComponent("status/503")),
                serializer: .passthrough
            ).statusCode == 503
        )
        let spans = await waitForFinishedSpans(tracer, count: 1)
        #expect(spans.count == 1)
        let retried = try #require(spans.first)
        #expect(retried.attributes["http.request.resend_count"]?.toSpanAttribute() == 1)
        #expect(retried.events.map(\.name) == ["retry"])
        #expect(retried.attributes["error.type"]?.toSpanAttribute() == "503")
        // InMemoryTracer injects its own keys; one injection per attempt.
        #expect(tracer.performedContextInjections.count == 3)
        manager.invalidateAndCancel()
    }

    @Test("a transport error is recorded on the span with its error.type")
    func transportError() async throws {
        let servers = try TestServers.shared()
        let tracer = InMemoryTracer()
        let tracing = TracingEventMonitor(tracer: tracer)
        let manager = SessionManager(eventMonitors: [tracing])
        manager.interceptor = tracing.interceptor
        var request = URLRequest(url: servers.fault.appendingPathComponent("stall"))
        request.timeoutInterval = 0.5
        let response = await manager.response(for: request, serializer: .passthrough)
        #expect((response.error as? URLError)?.code == .timedOut)
        let span = try #require(await waitForFinishedSpans(tracer, count: 1).first)
        #expect(span.attributes["error.type"]?.toSpanAttribute() == "timedOut")
        #expect(span.errors.count == 1)
        #expect(span.status?.code == .error)
        #expect(span.attributes["http.response.status_code"] == nil)
        manager.invalidateAndCancel()
    }

    @Test("a task cancelled while an earlier adapter runs starts no span and leaves none open")
    func cancelledDuringAdaptation() async throws {
        let servers = try TestServers.shared()
        let tracer = InMemoryTracer()
        let tracing = TracingEventMonitor(tracer: tracer)
        let manager = SessionManager(eventMonitors: [tracing])
        let adapting = AdapterGate()
        manager.interceptor = Interceptor(adapters: [adapting, tracing.interceptor], retriers: [])
        let request = URLRequest(url: servers.httpbin.appendingPathComponent("get"))
        let task = manager.dataTask(with: request, serializer: .passthrough) { _ in }
        task.resume()
        #expect(await eventually { adapting.entered.load(ordering: .sequentiallyConsistent) })
        task.cancel()
        // The cancel ends the task at once; the adapters after the cancelled one do not run,
        // so no span was started, and none is left open.
        #expect(await eventually { task.state == .completed })
        #expect(await eventually { manager.tasks.isEmpty })
        #expect(tracer.activeSpans.isEmpty)
        #expect(tracer.finishedSpans.isEmpty)
        manager.invalidateAndCancel()
    }

    @Test("without the interceptor a task still gets a span, with no parent and nothing injected")
    func monitorAlone() async throws {
        let servers = try TestServers.shared()
        let tracer = InMemoryTracer()
        let manager = SessionManager(eventMonitors: [TracingEventMonitor(tracer: tracer)])
        let response = await manager.response(
            for: URLRequest(url: servers.httpbin.appendingPathComponent("headers")),
            serializer: .passthrough
        )
        let echoed = try JSONDecoder().decode(EchoedHeaders.self, from: try #require(response.value))
        let span = try #require(await waitForFinishedSpans(tracer, count: 1).first)
        #expect(span.parentSpanID == nil)
        #expect(span.attributes["http.response.status_code"]?.toSpanAttribute() == 200)
        #expect(tracer.performedContextInjections.isEmpty)
        #expect(echoed.headers.keys.allSatisfy { !$0.lowercased().hasPrefix("in-memory") })
        manager.invalidateAndCancel()
    }
}
