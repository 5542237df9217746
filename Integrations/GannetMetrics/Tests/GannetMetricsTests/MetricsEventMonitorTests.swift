import CoreMetrics
import Foundation
import GannetCore
import GannetMetrics
import GannetTestSupport
import MetricsTestKit
import Testing

/// Sends `request` through `manager` and returns its response.
func send(_ request: URLRequest, through manager: SessionManager) async -> DataResponse<Data> {
    await manager.response(for: request, serializer: .passthrough)
}

/// The sum of a counter's increments over every series with `label` whose dimensions include
/// `dimensions`.
func total(_ metrics: TestMetrics, _ label: String, _ dimensions: [(String, String)] = []) -> Int64 {
    metrics.counters(label: label).filter { counter in
        dimensions.allSatisfy { wanted in counter.dimensions.contains { $0 == wanted } }
    }.reduce(0) { $0 + $1.totalValue }
}

@Suite("MetricsEventMonitor")
struct MetricsEventMonitorTests {
    @Test("a request is counted by status class and timed, its body sizes recorded, the active gauge back to 0")
    func successfulRequest() async throws {
        let servers = try TestServers.shared()
        let metrics = TestMetrics()
        let manager = SessionManager(eventMonitors: [MetricsEventMonitor(factory: metrics)])
        var request = URLRequest(url: servers.httpbin.appendingPathComponent("anything"))
        request.httpMethod = "POST"
        request.httpBody = Data(repeating: 0x61, count: 300)
        #expect(await send(request, through: manager).statusCode == 200)
        let host = servers.httpbin.host!
        #expect(await eventually { total(metrics, MetricsEventMonitor.Label.requests) == 1 })

        let expected = [
            ("http.request.method", "POST"), ("server.address", host), ("http.response.status_class", "2xx"),
        ]
        #expect(total(metrics, MetricsEventMonitor.Label.requests, expected) == 1)
        let timer = try metrics.expectTimer(MetricsEventMonitor.Label.duration, expected)
        #expect(timer.values.count == 1)
        #expect(timer.values.allSatisfy { $0 > 0 })
        let sent = try metrics.expectRecorder(
            MetricsEventMonitor.Label.requestBodySize,
            [("http.request.method", "POST"), ("server.address", host)]
        )
        #expect(sent.values == [300])
        let received = try metrics.expectRecorder(
            MetricsEventMonitor.Label.responseBodySize,
            [("http.request.method", "POST"), ("server.address", host)]
        )
        #expect(received.values.count == 1 && received.values[0] > 300)  // httpbin echoes the body in JSON
        let active = try metrics.expectMeter(MetricsEventMonitor.Label.activeRequests, [("server.address", host)])
        #expect(active.values == [1, 0])
        #expect(total(metrics, MetricsEventMonitor.Label.connections) == 1)
        #expect(total(metrics, MetricsEventMonitor.Label.errors) == 0)
        manager.invalidateAndCancel()
    }

    @Test("a server error is counted as 5xx, each retry counted")
    func serverErrorAndRetries() async throws {
        let servers = try TestServers.shared()
        let metrics = TestMetrics()
        let manager = SessionManager(eventMonitors: [MetricsEventMonitor(factory: metrics)])
        manager.interceptor = RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0, jitter: 0)
        let response = await send(
            URLRequest(url: servers.httpbin.appendingPathComponent("status/503")),
            through: manager
        )
        #expect(response.statusCode == 503)
        #expect(await eventually { total(metrics, MetricsEventMonitor.Label.requests) == 1 })
        #expect(total(metrics, MetricsEventMonitor.Label.requests, [("http.response.status_class", "5xx")]) == 1)
        #expect(total(metrics, MetricsEventMonitor.Label.retries, [("http.request.method", "GET")]) == 2)
        // Metrics describe a task's last attempt (docs/interceptors.md, "Retry"): one connection.
        #expect(total(metrics, MetricsEventMonitor.Label.connections) == 1)
        manager.invalidateAndCancel()
    }

    @Test("transport failures are counted by error type: a refused connection, an empty reply, a cancellation")
    func errorsByKind() async throws {
        let servers = try TestServers.shared()
        let metrics = TestMetrics()
        let manager = SessionManager(eventMonitors: [MetricsEventMonitor(factory: metrics)])
        // Port 1 on loopback: nothing listens there (as in the core's SessionManagerTests).
        let refused = await send(URLRequest(url: URL(string: "http://127.0.0.1:1/")!), through: manager)
        #expect((refused.error as? URLError)?.code == .cannotConnectToHost)
        let empty = await send(URLRequest(url: servers.fault.appendingPathComponent("empty-reply")), through: manager)
        let emptyType = errorTypeName(try #require(empty.error))

        let stalled = manager.dataTask(
            with: URLRequest(url: servers.fault.appendingPathComponent("stall")),
            serializer: .passthrough
        ) { _ in }
        stalled.resume()
        #expect(
            await eventually {
                (try? metrics.expectMeter(
                    MetricsEventMonitor.Label.activeRequests,
                    [("server.address", servers.fault.host!)]
                ).lastValue) == 1
            }
        )
        stalled.cancel()

        #expect(await eventually { total(metrics, MetricsEventMonitor.Label.requests) == 3 })
        #expect(total(metrics, MetricsEventMonitor.Label.errors, [("error.type", "cannotConnectToHost")]) == 1)
        #expect(total(metrics, MetricsEventMonitor.Label.errors, [("error.type", emptyType)]) == 1)
        #expect(total(metrics, MetricsEventMonitor.Label.errors, [("error.type", "cancelled")]) == 1)
        #expect(emptyType != "cancelled" && emptyType != "cannotConnectToHost")
        manager.invalidateAndCancel()
    }

    @Test("connections are counted new or reused: a second request to nginx reuses the first one's")
    func connectionReuse() async throws {
        let servers = try TestServers.shared()
        let metrics = TestMetrics()
        let manager = SessionManager(eventMonitors: [MetricsEventMonitor(factory: metrics)])
        let request = URLRequest(url: servers.nginx.appendingPathComponent("small"))
        #expect(await send(request, through: manager).statusCode == 200)
        #expect(await send(request, through: manager).statusCode == 200)
        #expect(await eventually { total(metrics, MetricsEventMonitor.Label.connections) == 2 })
        #expect(total(metrics, MetricsEventMonitor.Label.connections, [("connection.reused", "false")]) == 1)
        #expect(total(metrics, MetricsEventMonitor.Label.connections, [("connection.reused", "true")]) == 1)
        manager.invalidateAndCancel()
    }

    @Test("the pool size gauge reads the manager's maximumConnectionsPerHost")
    func poolSize() throws {
        let metrics = TestMetrics()
        var configuration = SessionConfiguration.default
        configuration.maximumConnectionsPerHost = 6
        _ = MetricsEventMonitor(configuration: configuration, factory: metrics)
        #expect(try metrics.expectMeter(MetricsEventMonitor.Label.poolSize).lastValue == 6)
    }
}
