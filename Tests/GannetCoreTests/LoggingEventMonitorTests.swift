import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Logging monitor and credential redaction")
struct LoggingEventMonitorTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    static let secrets = [
        "bearer-secret-123", "cookie-secret-456", "proxy-secret-789", "url-pa55word", "setcookie-secret-000",
    ]

    /// A request carrying every kind of credential, to httpbin's header echo (the body, which
    /// is not logged, shows what was sent).
    private func credentialRequest() -> URLRequest {
        var components = URLComponents(url: servers.httpbin.adding("/headers"), resolvingAgainstBaseURL: false)!
        components.user = "gannet"
        components.password = "url-pa55word"
        var request = URLRequest(url: components.url!)
        request.setValue("session=cookie-secret-456", forHTTPHeaderField: "Cookie")
        request.setValue("Basic proxy-secret-789", forHTTPHeaderField: "Proxy-Authorization")
        request.setValue("kept", forHTTPHeaderField: "X-Visible")
        return request
    }

    /// A response with a `Set-Cookie` whose value is not in the URL as such (percent-encoded).
    private func setCookieRequest() -> URLRequest {
        var components = URLComponents(
            url: servers.httpbin.adding("/response-headers"),
            resolvingAgainstBaseURL: false
        )!
        let encoded = "setcookie-secret-000".utf8.map { String(format: "%%%02X", $0) }.joined()
        components.percentEncodedQuery = "Set-Cookie=\(encoded)"
        var request = URLRequest(url: components.url!)
        request.setValue("Bearer bearer-secret-123", forHTTPHeaderField: "Authorization")
        return request
    }

    @Test func noCredentialInAnyLogLine() async throws {
        let lines = Mutex<[String]>([])
        let logger = LoggingEventMonitor { line in lines.withLock { $0.append(line) } }
        let recorder = RecordingMonitor("test.logging.recorder")
        // The logger's queue is serial and every event of a task is queued before `finished`:
        // once the recorder (queued after the logger) saw `finished`, wait for the logger's
        // own `finished` line.
        let manager = SessionManager(eventMonitors: [logger, recorder])
        defer { manager.finishTasksAndInvalidate() }

        let (authTask, authResponse) = await run {
            manager.dataTask(with: credentialRequest(), serializer: .passthrough, completionHandler: $0)
        }
        #expect(authResponse.response?.statusCode == 200)
        let sent = try #require(try json(authResponse.data)["headers"] as? [String: String])
        #expect(sent["Authorization"] == "Basic " + Data("gannet:url-pa55word".utf8).base64EncodedString())
        #expect(sent["Cookie"] == "session=cookie-secret-456")
        let (cookieTask, cookieResponse) = await run {
            manager.dataTask(with: setCookieRequest(), serializer: .passthrough, completionHandler: $0)
        }
        #expect(cookieResponse.response?.value(forHTTPHeaderField: "Set-Cookie") == "setcookie-secret-000")
        for task in [authTask, cookieTask] { _ = await recorder.waitUntilFinished(task) }
        let deadline = ContinuousClock.now + .seconds(30)
        while lines.withLock({ $0.filter { $0.hasSuffix(" finished") }.count }) < 2 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }

        let log = lines.withLock { $0 }
        let text = log.joined(separator: "\n")
        for secret in Self.secrets { #expect(!text.contains(secret), "\(secret) leaked into the log") }
        #expect(text.contains("Cookie: ***"))
        #expect(text.contains("Proxy-Authorization: ***"))
        #expect(text.contains("Authorization: ***"))
        #expect(text.contains("Set-Cookie: ***"))
        #expect(text.contains("http://***@"))
        #expect(text.contains("X-Visible: kept"))
        // One line per event, each naming its task.
        #expect(log.allSatisfy { !$0.contains("\n") && $0.hasPrefix("[Gannet] #") })
        #expect(log.contains { $0.hasPrefix("[Gannet] #\(authTask.taskIdentifier) response 200 [") })
        #expect(log.contains { $0.hasPrefix("[Gannet] #\(cookieTask.taskIdentifier) sending GET ") })

        for description in [
            authTask.cURLDescription(), cookieTask.cURLDescription(), credentialRequest().cURLDescription(),
            setCookieRequest().cURLDescription(),
        ] {
            for secret in Self.secrets {
                #expect(!description.contains(secret), "\(secret) leaked into \(description)")
            }
        }
        #expect(authTask.cURLDescription().contains("--header 'Cookie: ***'"))
        #expect(cookieTask.cURLDescription().contains("--header 'Authorization: ***'"))
    }

    @Test func writesLinesToAFileHandle() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-log-\(UUID()).txt")
        #expect(FileManager.default.createFile(atPath: path.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: path) }
        let handle = try FileHandle(forWritingTo: path)
        let logger = LoggingEventMonitor(fileHandle: handle)
        let recorder = RecordingMonitor("test.logging.file")
        let manager = SessionManager(eventMonitors: [logger, recorder])
        defer { manager.finishTasksAndInvalidate() }
        let (task, _) = await run {
            manager.dataTask(with: setCookieRequest(), serializer: .passthrough, completionHandler: $0)
        }
        _ = await recorder.waitUntilFinished(task)
        let deadline = ContinuousClock.now + .seconds(30)
        var text = ""
        while !text.contains("#\(task.taskIdentifier) finished\n") && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
            text = String(decoding: try Data(contentsOf: path), as: UTF8.self)
        }
        #expect(text.contains("[Gannet] #\(task.taskIdentifier) created GET "))
        #expect(text.contains("[Gannet] #\(task.taskIdentifier) finished\n"))
        for secret in Self.secrets { #expect(!text.contains(secret)) }
    }
}
