import Foundation
import GannetCore
import GannetLogging
import GannetTestSupport
import Logging
import Synchronization
import Testing

/// Every line a logger wrote, kept in memory: the test's LogHandler.
final class LogRecorder: Sendable {
    struct Line: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]
    }

    private let storage = Mutex<[Line]>([])

    var lines: [Line] { storage.withLock { $0 } }

    func logger(label: String = "test", metadata: Logger.Metadata = [:]) -> Logger {
        var logger = Logger(label: label) { _ in Handler(recorder: self) }
        logger.logLevel = .trace
        for (key, value) in metadata { logger[metadataKey: key] = value }
        return logger
    }

    func lines(with message: String) -> [Line] { lines.filter { $0.message == message } }

    fileprivate func append(_ line: Line) { storage.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            recorder.append(
                Line(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
            )
        }
    }
}

/// Sends `request` through `manager`, letting `prepare` see the task before it is resumed.
func send(
    _ request: URLRequest,
    through manager: SessionManager,
    prepare: (SessionTask) -> Void = { _ in }
) async -> DataResponse<Data> {
    await withCheckedContinuation { continuation in
        let task = manager.dataTask(with: request, serializer: .passthrough) { continuation.resume(returning: $0) }
        prepare(task)
        task.resume()
    }
}

@Suite("LoggerEventMonitor")
struct LoggerEventMonitorTests {
    @Test(
        "a task logs its start at debug and its completion at info, with its metadata, the URL's credentials redacted"
    )
    func startAndCompletion() async throws {
        let servers = try TestServers.shared()
        let recorder = LogRecorder()
        let manager = SessionManager(eventMonitors: [LoggerEventMonitor(logger: recorder.logger())])
        var components = URLComponents(
            url: servers.httpbin.appendingPathComponent("bytes/512"),
            resolvingAgainstBaseURL: false
        )!
        components.user = "alice"
        components.password = "s3cret-password"
        let response = await send(URLRequest(url: components.url!), through: manager)
        #expect(response.statusCode == 200)
        #expect(await eventually { recorder.lines(with: "Gannet request completed").count == 1 })

        let start = try #require(recorder.lines(with: "Gannet request started").first)
        #expect(start.level == .debug)
        #expect(start.metadata["gannet-method"] == "GET")
        let end = try #require(recorder.lines(with: "Gannet request completed").first)
        #expect(end.level == .info)
        #expect(end.metadata["gannet-status"] == "200")
        #expect(end.metadata["gannet-bytes-received"] == "512")
        #expect(end.metadata["gannet-retry-count"] == "0")
        #expect(end.metadata["gannet-duration"].flatMap(Double.init).map { $0 > 0 } == true)
        #expect(end.metadata["gannet-task-id"] == start.metadata["gannet-task-id"])
        for line in recorder.lines {
            #expect(!"\(line.metadata)".contains("s3cret-password"), "\(line.message) leaked the password")
            #expect(!"\(line.metadata)".contains("alice"), "\(line.message) leaked the user name")
        }
        #expect(end.metadata["gannet-url"]?.contains("***@127.0.0.1") == true)
        manager.invalidateAndCancel()
    }

    @Test("a transport failure is logged at warning with its error")
    func failure() async throws {
        let servers = try TestServers.shared()
        let recorder = LogRecorder()
        let manager = SessionManager(eventMonitors: [LoggerEventMonitor(logger: recorder.logger())])
        // The fault server closes the connection without a response (`/empty-reply`).
        let response = await send(
            URLRequest(url: servers.fault.appendingPathComponent("empty-reply")),
            through: manager
        )
        #expect(response.error != nil)
        #expect(await eventually { recorder.lines(with: "Gannet request failed").count == 1 })
        let line = try #require(recorder.lines(with: "Gannet request failed").first)
        #expect(line.level == .warning)
        #expect(line.metadata["gannet-error"]?.isEmpty == false)
        #expect(recorder.lines(with: "Gannet request completed").isEmpty)
        manager.invalidateAndCancel()
    }

    @Test("a retried task logs each retry and its retry count")
    func retries() async throws {
        let servers = try TestServers.shared()
        let recorder = LogRecorder()
        let manager = SessionManager(eventMonitors: [LoggerEventMonitor(logger: recorder.logger())])
        manager.interceptor = RetryPolicy(retryLimit: 2, exponentialBackoffScale: 0, jitter: 0)
        let response = await send(
            URLRequest(url: servers.httpbin.appendingPathComponent("status/503")),
            through: manager
        )
        #expect(response.statusCode == 503)
        #expect(await eventually { recorder.lines(with: "Gannet request completed").count == 1 })
        #expect(recorder.lines(with: "Gannet request will be retried").map(\.level) == [.info, .info])
        let end = try #require(recorder.lines(with: "Gannet request completed").first)
        #expect(end.metadata["gannet-retry-count"] == "2")
        #expect(end.metadata["gannet-status"] == "503")
        manager.invalidateAndCancel()
    }

    @Test("a request-scoped logger receives its task's lines, with its own metadata; the monitor's logger none of them")
    func requestScopedLogger() async throws {
        let servers = try TestServers.shared()
        let shared = LogRecorder()
        let scoped = LogRecorder()
        let monitor = LoggerEventMonitor(logger: shared.logger())
        let manager = SessionManager(eventMonitors: [monitor])
        let requestLogger = scoped.logger(label: "request", metadata: ["request-id": "r-42"])
        let response = await send(URLRequest(url: servers.httpbin.appendingPathComponent("get")), through: manager) {
            monitor.setLogger(requestLogger, for: $0)
        }
        #expect(response.statusCode == 200)
        #expect(await eventually { scoped.lines(with: "Gannet request completed").count == 1 })
        #expect(scoped.lines.map(\.message) == ["Gannet request started", "Gannet request completed"])
        #expect(scoped.lines.allSatisfy { $0.metadata["request-id"] == "r-42" })

        // A second task without one goes to the monitor's logger.
        _ = await send(URLRequest(url: servers.httpbin.appendingPathComponent("get")), through: manager)
        #expect(await eventually { shared.lines(with: "Gannet request completed").count == 1 })
        #expect(scoped.lines.count == 2)
        #expect(shared.lines.allSatisfy { $0.metadata["request-id"] == nil })
        manager.invalidateAndCancel()
    }
}
