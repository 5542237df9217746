import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// SECURITY-CASES 42: a proxy URL's password, a token in the user part of a URL and the values
/// of secret-bearing headers are redacted in every error, description and log line, libcurl's
/// messages included (docs/monitors.md, "What is redacted").
@Suite("Secrets in errors, descriptions and logs")
struct SecretRedactionTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    static let proxyPassword = "pr0xy-pa55w0rd"
    static let urlToken = "t0ken-in-the-user-part"

    // MARK: Proxy URLs in errors

    /// Proxy URLs libcurl refuses with "Unsupported proxy syntax in '…'", quoting them whole:
    /// a port out of range, and a token as the user with no password.
    static let unusableProxies = [
        "http://gannet:\(proxyPassword)@127.0.0.1:99999",
        "http://\(proxyPassword)@127.0.0.1:99999",
    ]

    @Test(arguments: unusableProxies)
    func aProxyURLsSecretIsInNoPartOfItsError(_ proxy: String) async throws {
        let proxyURL = try #require(URL(string: proxy))
        var configuration = SessionConfiguration.default
        configuration.proxy = .url(proxyURL)
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidateAndCancel() }
        let response = await manager.response(
            for: URLRequest(url: servers.httpbin.adding("/get")),
            serializer: .passthrough
        )
        let error = try #require(response.error, "the request went through the proxy \(proxy)")
        let gannet = try #require(SecretScan.gannetError(in: error), "\(error)")
        // libcurl's own message, with the secret taken out of it (not replaced by a generic one).
        #expect(gannet.message.contains("proxy"), "\(gannet.message)")
        #expect(gannet.message.contains("***"), "\(gannet.message)")
        SecretScan.expectAbsent(Self.proxyPassword, from: error)
    }

    /// The authenticating proxy (Tests/Servers/proxy_server.py) refuses a wrong password:
    /// the tunnel to an https origin fails, and the password is in no part of the error.
    @Test func aRealProxyThatRefusesTheCredentialLeavesItOutOfTheError() async throws {
        var components = try #require(URLComponents(url: servers.authenticatingProxy, resolvingAgainstBaseURL: false))
        components.user = servers.proxyCredentials.user
        components.password = Self.proxyPassword
        var configuration = SessionConfiguration.default
        configuration.proxy = .url(try #require(components.url))
        configuration.tls.caFile = servers.certificates.caBundle
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidateAndCancel() }
        let origin = servers.tlsEndpoint(.good).appendingPathComponent("small")
        let response = await manager.response(for: URLRequest(url: origin), serializer: .passthrough)
        let error = try #require(response.error, "the proxy let a wrong password through")
        SecretScan.expectAbsent(Self.proxyPassword, from: error)
        let log = String(decoding: FileManager.default.contents(atPath: servers.proxyLog) ?? Data(), as: UTF8.self)
        let sent = Data("\(servers.proxyCredentials.user):\(Self.proxyPassword)".utf8).base64EncodedString()
        #expect(log.contains(sent), "the control: the proxy was asked, with the password")
    }

    /// A request URL with a token as its user, to a port nothing listens on.
    @Test func aTokenInTheRequestURLIsInNoPartOfItsError() async throws {
        let manager = SessionManager(configuration: Faults.configuration())
        defer { manager.invalidateAndCancel() }
        let url = try #require(URL(string: "http://\(Self.urlToken)@127.0.0.1:1/get"))
        let response = await manager.response(for: URLRequest(url: url), serializer: .passthrough)
        let error = try #require(response.error)
        SecretScan.expectAbsent(Self.urlToken, from: error)
    }

    // MARK: cURLDescription and the logging monitor

    /// `http://TOKEN@host/`: the user part is the secret, with no password after it.
    @Test func aTokenAsTheUserIsInNoDescriptionOrLogLine() async throws {
        let lines = LogLines()
        let logger = LoggingEventMonitor { line in lines.append(line) }
        let recorder = RecordingMonitor("test.redaction.token")
        let manager = SessionManager(eventMonitors: [logger, recorder])
        defer { manager.finishTasksAndInvalidate() }
        var components = try #require(
            URLComponents(url: servers.httpbin.adding("/get"), resolvingAgainstBaseURL: false)
        )
        components.user = Self.urlToken
        let request = URLRequest(url: try #require(components.url))

        let (task, response) = await run {
            manager.dataTask(with: request, serializer: .passthrough, completionHandler: $0)
        }
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        _ = await recorder.waitUntilFinished(task)
        let log = try await Self.wait(for: task, in: lines)

        #expect(!log.contains(Self.urlToken), "\(log)")
        #expect(log.contains("http://***@"), "\(log)")
        for description in [request.cURLDescription(), task.cURLDescription()] {
            #expect(!description.contains(Self.urlToken), "\(description)")
            #expect(description.contains("'http://***@"), "\(description)")
        }
    }

    static let headerSecrets = [
        "X-API-Key": "api-key-s3cret", "X-Auth-Token": "auth-token-s3cret", "X-Upstream-Secret": "upstream-s3cret",
    ]

    /// Custom secret headers, sent and echoed back, and a `Set-Cookie` the server sets: every
    /// value is `***` in the log and in `cURLDescription()`; other headers are kept.
    @Test func secretHeadersAreRedactedInTheLogAndInDescriptions() async throws {
        let lines = LogLines()
        let logger = LoggingEventMonitor { line in lines.append(line) }
        let recorder = RecordingMonitor("test.redaction.headers")
        // No cookie storage: the cookie set here must not reach other suites' requests.
        var configuration = SessionConfiguration.default
        configuration.httpCookieStorage = nil
        let manager = SessionManager(configuration: configuration, eventMonitors: [logger, recorder])
        defer { manager.finishTasksAndInvalidate() }
        // httpbin echoes the query as response headers; the values are percent-encoded in the
        // URL, so only the headers can carry them into the log.
        var components = try #require(
            URLComponents(url: servers.httpbin.adding("/response-headers"), resolvingAgainstBaseURL: false)
        )
        let echoed = ["X-Auth-Token": "auth-token-echoed", "Set-Cookie": "id=set-cookie-s3cret; Path=/"]
        components.percentEncodedQuery = echoed.map { "\($0.key)=\(Self.percentEncodedEveryByte($0.value))" }
            .joined(separator: "&")
        var request = URLRequest(url: try #require(components.url))
        for (name, value) in Self.headerSecrets { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("kept-value", forHTTPHeaderField: "X-Request-Id")

        let (task, response) = await run {
            manager.dataTask(with: request, serializer: .passthrough, completionHandler: $0)
        }
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        #expect(response.response?.value(forHTTPHeaderField: "X-Auth-Token") == "auth-token-echoed")
        _ = await recorder.waitUntilFinished(task)
        let log = try await Self.wait(for: task, in: lines)

        for secret in Array(Self.headerSecrets.values) + ["auth-token-echoed", "set-cookie-s3cret"] {
            #expect(!log.contains(secret), "\(secret) leaked into the log: \(log)")
            #expect(!task.cURLDescription().contains(secret), "\(secret) leaked into \(task.cURLDescription())")
        }
        // Names as Foundation spells them (`X-Api-Key`).
        #expect(log.lowercased().contains("x-api-key: ***"), "\(log)")
        #expect(log.lowercased().contains("x-auth-token: ***"), "\(log)")
        #expect(log.contains("Set-Cookie: ***"), "\(log)")
        #expect(log.contains("X-Request-Id: kept-value"), "\(log)")
        #expect(task.cURLDescription().lowercased().contains("--header 'x-api-key: ***'"))
    }

    /// The list is the caller's to extend: a header Gannet cannot know is secret.
    @Test func theRedactedHeadersAreExtensible() async throws {
        var redaction = HeaderRedaction.default
        redaction.names.insert("X-Tenant")
        #expect(redaction.redacts("x-tenant") && redaction.redacts("Authorization"))
        #expect(!HeaderRedaction.default.redacts("X-Tenant"))

        let extended = LogLines()
        let plain = LogLines()
        let recorder = RecordingMonitor("test.redaction.extensible")
        let manager = SessionManager(eventMonitors: [
            LoggingEventMonitor(redacting: redaction) { line in extended.append(line) },
            LoggingEventMonitor { line in plain.append(line) },
            recorder,
        ])
        defer { manager.finishTasksAndInvalidate() }
        var request = URLRequest(url: servers.httpbin.adding("/get"))
        request.setValue("tenant-4711", forHTTPHeaderField: "X-Tenant")
        let (task, response) = await run {
            manager.dataTask(with: request, serializer: .passthrough, completionHandler: $0)
        }
        #expect(response.response?.statusCode == 200)
        _ = await recorder.waitUntilFinished(task)
        let redacted = try await SecretRedactionTests.wait(for: task, in: extended)
        let kept = try await SecretRedactionTests.wait(for: task, in: plain)
        #expect(redacted.contains("X-Tenant: ***") && !redacted.contains("tenant-4711"), "\(redacted)")
        #expect(kept.contains("X-Tenant: tenant-4711"), "\(kept)")
        #expect(request.cURLDescription(redacting: redaction).contains("--header 'X-Tenant: ***'"))
        #expect(request.cURLDescription().contains("--header 'X-Tenant: tenant-4711'"))
        #expect(task.cURLDescription(redacting: redaction).contains("--header 'X-Tenant: ***'"))
    }

    // MARK: Helpers

    /// The log once the logger wrote `task`'s `finished` line (its queue is serial, so every
    /// earlier line of the task is in).
    static func wait(for task: SessionTask, in lines: LogLines) async throws -> String {
        let finished = "[Gannet] #\(task.taskIdentifier) finished"
        let done = await eventually(within: 30) { lines.all.contains { $0.hasPrefix(finished) } }
        #expect(done, "no finished line for task \(task.taskIdentifier)")
        return lines.all.joined(separator: "\n")
    }

    private static func percentEncodedEveryByte(_ text: String) -> String {
        text.utf8.map { String(format: "%%%02X", $0) }.joined()
    }
}

/// The lines a ``LoggingEventMonitor`` wrote, from any thread.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

/// Every text an error offers a reader, and the check that a secret is in none of them.
enum SecretScan {
    static func gannetError(in error: any Error) -> GannetError? {
        if let error = error as? GannetError { return error }
        return (error as? URLError)?.errorUserInfo[NSUnderlyingErrorKey] as? GannetError
    }

    /// `String(describing:)`, `String(reflecting:)`, `localizedDescription`, a `dump` of every
    /// stored property, and every value of its user info, recursively (underlying errors too).
    static func texts(of error: any Error, depth: Int = 0) -> [String] {
        guard depth < 8 else { return [] }
        var dumped = ""
        dump(error, to: &dumped)
        var texts = [String(describing: error), String(reflecting: error), error.localizedDescription, dumped]
        if let gannet = error as? GannetError {
            texts += [gannet.message, gannet.failingURL?.absoluteString ?? ""]
            if let underlying = gannet.underlyingError { texts += Self.texts(of: underlying, depth: depth + 1) }
        }
        if let bridged = error as? any CustomNSError {
            for (key, value) in bridged.errorUserInfo { texts += [key] + Self.texts(ofValue: value, depth: depth + 1) }
        }
        return texts
    }

    private static func texts(ofValue value: Any, depth: Int) -> [String] {
        switch value {
        case let text as String: return [text]
        case let url as URL: return [url.absoluteString, url.description]
        case let error as any Error: return texts(of: error, depth: depth)
        case let array as [Any]: return array.flatMap { texts(ofValue: $0, depth: depth) }
        case let dictionary as [AnyHashable: Any]:
            return dictionary.flatMap { ["\($0.key)"] + texts(ofValue: $0.value, depth: depth) }
        default:
            var dumped = ""
            dump(value, to: &dumped)
            return [String(describing: value), dumped]
        }
    }

    static func expectAbsent(_ secret: String, from error: any Error, sourceLocation: SourceLocation = #_sourceLocation)
    {
        let texts = texts(of: error)
        #expect(texts.count > 4, "the scan found the error's texts", sourceLocation: sourceLocation)
        for text in texts where text.contains(secret) {
            Issue.record("\(secret) is in \(text.debugDescription)", sourceLocation: sourceLocation)
        }
    }
}
