import Foundation
import GannetTestSupport
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private let follow = SessionConfiguration.RedirectPolicy.follow(max: 16)

private func request(
    _ string: String,
    method: String = "GET",
    body: Data? = nil,
    headers: [String: String] = [:]
) -> URLRequest {
    var request = URLRequest(url: URL(string: string)!)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    return request
}

/// The followed request, or `nil` (with an issue) for any other outcome.
private func followed(_ outcome: Redirection.Outcome, sourceLocation: SourceLocation = #_sourceLocation) -> URLRequest?
{
    guard case .follow(let next) = outcome else {
        Issue.record("expected .follow, got \(outcome)", sourceLocation: sourceLocation)
        return nil
    }
    return next
}

private func refusal(_ outcome: Redirection.Outcome) -> GannetError.Code? {
    if case .refuse(let error) = outcome { return error.code }
    return nil
}

private func isDelivered(_ outcome: Redirection.Outcome) -> Bool {
    if case .deliver = outcome { return true }
    return false
}

@Suite("Redirection: the next request, by RFC 9110 and Gannet's protections")
struct RedirectionTests {
    @Test(arguments: 300...399)
    func onlyTheFiveRedirectStatusesRedirect(status: Int) {
        #expect(Redirection.isRedirect(status) == [301, 302, 303, 307, 308].contains(status))
    }

    @Test func withoutALocationOrWithRedirectsOffTheResponseIsDelivered() {
        let original = request("http://a.example/x")
        #expect(
            isDelivered(
                Redirection.next(after: original, response: 302, location: nil, policy: follow, bodyIsRepeatable: true)
            )
        )
        #expect(
            isDelivered(
                Redirection.next(
                    after: original,
                    response: 302,
                    location: "/y",
                    policy: .disallow,
                    bodyIsRepeatable: true
                )
            )
        )
        #expect(
            isDelivered(
                Redirection.next(after: original, response: 304, location: "/y", policy: follow, bodyIsRepeatable: true)
            )
        )
    }

    @Test(arguments: [
        ("/y", "http://a.example/y"),
        ("y?q=1", "http://a.example/dir/y?q=1"),
        ("//b.example/z", "http://b.example/z"),
        ("https://a.example:8443/s", "https://a.example:8443/s"),
        ("HTTP://A.example/up", "HTTP://A.example/up"),
    ])
    func locationsResolveAgainstTheCurrentURL(location: String, expected: String) throws {
        let next = followed(
            Redirection.next(
                after: request("http://a.example/dir/x"),
                response: 302,
                location: location,
                policy: follow,
                bodyIsRepeatable: true
            )
        )
        #expect(next?.url?.absoluteString == expected)
    }

    @Test(arguments: [
        "file:///etc/passwd", "ftp://a.example/x", "gopher://a.example/x", "dict://a.example/x", "javascript:alert(1)",
        "data:text/plain,hi", "ws://a.example/", "ldap://a.example/",
    ])
    func nonHTTPSchemesAreRefused(location: String) {
        let outcome = Redirection.next(
            after: request("http://a.example/x"),
            response: 302,
            location: location,
            policy: follow,
            bodyIsRepeatable: true
        )
        #expect(refusal(outcome) == .unsupportedScheme)
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func httpsToHTTPIsRefusedUnlessAllowed(status: Int) {
        let original = request("https://a.example/x")
        let refused = Redirection.next(
            after: original,
            response: status,
            location: "http://a.example/x",
            policy: follow,
            bodyIsRepeatable: true
        )
        #expect(refusal(refused) == .insecureRedirect)
        let allowed = Redirection.next(
            after: original,
            response: status,
            location: "http://a.example/x",
            policy: .follow(max: 16, allowsHTTPSToHTTP: true),
            bodyIsRepeatable: true
        )
        #expect(followed(allowed)?.url?.scheme == "http")
    }

    @Test func httpToHTTPSIsFollowed() {
        let next = followed(
            Redirection.next(
                after: request("http://a.example/x"),
                response: 301,
                location: "https://a.example/x",
                policy: follow,
                bodyIsRepeatable: true
            )
        )
        #expect(next?.url?.scheme == "https")
    }

    // MARK: Methods and bodies

    @Test(arguments: [("POST", 303), ("PUT", 303), ("DELETE", 303), ("PATCH", 303), ("POST", 301), ("POST", 302)])
    func theseBecomeGETWithoutBodyOrBodyHeaders(method: String, status: Int) {
        let original = request(
            "http://a.example/x",
            method: method,
            body: Data("a=1".utf8),
            headers: [
                "Content-Type": "application/x-www-form-urlencoded", "Content-Length": "3",
                "Content-Encoding": "identity", "X-Kept": "1",
            ]
        )
        let next = followed(
            Redirection.next(after: original, response: status, location: "/y", policy: follow, bodyIsRepeatable: true)
        )
        #expect(next?.httpMethod == "GET")
        #expect(next?.httpBody == nil)
        #expect(next?.httpBodyStream == nil)
        #expect(next?.value(forHTTPHeaderField: "Content-Type") == nil)
        #expect(next?.value(forHTTPHeaderField: "Content-Length") == nil)
        #expect(next?.value(forHTTPHeaderField: "Content-Encoding") == nil)
        #expect(next?.value(forHTTPHeaderField: "X-Kept") == "1")
    }

    @Test(arguments: [("POST", 307), ("POST", 308), ("PUT", 307), ("PUT", 301), ("PATCH", 302), ("DELETE", 308)])
    func theseKeepMethodAndBody(method: String, status: Int) {
        let body = Data("payload".utf8)
        let original = request(
            "http://a.example/x",
            method: method,
            body: body,
            headers: ["Content-Type": "text/plain"]
        )
        let next = followed(
            Redirection.next(after: original, response: status, location: "/y", policy: follow, bodyIsRepeatable: true)
        )
        #expect(next?.httpMethod == method)
        #expect(next?.httpBody == body)
        #expect(next?.value(forHTTPHeaderField: "Content-Type") == "text/plain")
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func headStaysHead(status: Int) {
        let next = followed(
            Redirection.next(
                after: request("http://a.example/x", method: "HEAD"),
                response: status,
                location: "/y",
                policy: follow,
                bodyIsRepeatable: true
            )
        )
        #expect(next?.httpMethod == "HEAD")
    }

    @Test(arguments: [307, 308])
    func aOneShotBodyThatMustBeResentIsDelivered(status: Int) {
        var original = request("http://a.example/x", method: "POST")
        original.httpBodyStream = InputStream(data: Data("once".utf8))
        #expect(
            isDelivered(
                Redirection.next(
                    after: original,
                    response: status,
                    location: "/y",
                    policy: follow,
                    bodyIsRepeatable: false
                )
            )
        )
    }

    @Test func aOneShotBodyMayStillBecomeAGET() {
        var original = request("http://a.example/x", method: "POST")
        original.httpBodyStream = InputStream(data: Data("once".utf8))
        let next = followed(
            Redirection.next(after: original, response: 303, location: "/y", policy: follow, bodyIsRepeatable: false)
        )
        #expect(next?.httpMethod == "GET")
        #expect(next?.httpBodyStream == nil)
    }

    // MARK: Origins and credentials

    @Test(arguments: [
        ("http://a.example/", "http://a.example:80/x", true),
        ("https://a.example/", "https://A.EXAMPLE:443/x", true),
        ("http://a.example/", "https://a.example/", false),
        ("http://a.example:80/", "http://a.example:8080/", false),
        ("http://127.0.0.1:8080/", "http://127.0.0.1:8081/", false),
        ("http://127.0.0.1:8080/", "http://localhost:8080/", false),
        ("http://a.example/", "http://b.example/", false),
        ("http://a.example/", "http://a.example./", false),
        ("https://a.example:443/", "http://a.example:443/", false),
    ])
    func originIsSchemeHostAndPort(first: String, second: String, same: Bool) {
        #expect(Redirection.sameOrigin(URL(string: first)!, URL(string: second)!) == same)
    }

    private static let credentials = [
        "Authorization": "Bearer secret", "Cookie": "sid=secret", "Proxy-Authorization": "Basic c2VjcmV0",
        "X-Kept": "1",
    ]

    @Test(arguments: [
        "http://127.0.0.1:8081/y", "http://localhost:8080/y", "https://127.0.0.1:8080/y", "http://evil.example/y",
    ])
    func credentialsNeverCrossToAnotherOrigin(location: String) {
        let original = request("http://127.0.0.1:8080/x", headers: Self.credentials)
        let next = followed(
            Redirection.next(after: original, response: 302, location: location, policy: follow, bodyIsRepeatable: true)
        )
        #expect(next?.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(next?.value(forHTTPHeaderField: "cookie") == nil)
        #expect(next?.value(forHTTPHeaderField: "PROXY-AUTHORIZATION") == nil)
        #expect(next?.value(forHTTPHeaderField: "X-Kept") == "1")
    }

    @Test func credentialsStayOnTheSameOrigin() {
        let original = request("http://127.0.0.1:8080/x", headers: Self.credentials)
        let next = followed(
            Redirection.next(
                after: original,
                response: 302,
                location: "http://127.0.0.1:8080/y",
                policy: follow,
                bodyIsRepeatable: true
            )
        )
        #expect(next?.value(forHTTPHeaderField: "Authorization") == "Bearer secret")
        #expect(next?.value(forHTTPHeaderField: "Cookie") == "sid=secret")
    }

    @Test func userinfoInACrossOriginLocationIsDropped() {
        let next = followed(
            Redirection.next(
                after: request("http://127.0.0.1:8080/x"),
                response: 302,
                location: "http://attacker:pw@127.0.0.1:8081/y",
                policy: follow,
                bodyIsRepeatable: true
            )
        )
        #expect(next?.url?.user == nil)
        #expect(next?.url?.password == nil)
        #expect(next?.url?.absoluteString == "http://127.0.0.1:8081/y")
    }

    @Test func refusalsNameTheCurrentURLWithoutItsPassword() {
        let outcome = Redirection.next(
            after: request("http://user:hunter2@a.example/x"),
            response: 302,
            location: "ftp://a.example/",
            policy: follow,
            bodyIsRepeatable: true
        )
        guard case .refuse(let error) = outcome else {
            Issue.record("expected a refusal, got \(outcome)")
            return
        }
        #expect(error.failingURL?.host == "a.example")
        #expect(!error.description.contains("hunter2"))
    }
}

extension FaultsSerialSuites {
    @Suite("Redirects from hostile servers, end to end")
    struct RedirectionEndToEndTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        private func redirect(via base: URL, to target: String, status: Int = 302) throws -> URL {
            var components = try #require(
                URLComponents(url: base.appendingPathComponent("redirect-to"), resolvingAgainstBaseURL: false)
            )
            components.queryItems = [
                URLQueryItem(name: "url", value: target), URLQueryItem(name: "status_code", value: "\(status)"),
            ]
            return try #require(components.url)
        }

        private func headers(_ outcome: FaultsOutcome) throws -> [String: String] {
            let data = try #require(outcome.response.value, "expected httpbin's /headers, got \(outcome.summary)")
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return try #require(object["headers"] as? [String: String])
        }

        // MARK: Schemes (case 11)

        @Test(arguments: [
            "file:///etc/passwd", "ftp://127.0.0.1:CANARY/x", "gopher://127.0.0.1:CANARY/x",
            "dict://127.0.0.1:CANARY/x", "ldap://127.0.0.1:CANARY/x",
        ])
        func redirectToANonHTTPSchemeIsRefusedWithoutConnecting(_ template: String) async throws {
            let ledger = try await FaultsLedger.begin(servers)
            let target = template.replacingOccurrences(of: "CANARY", with: "\(servers.canaryURL.port ?? 0)")
            let canaryBefore = try servers.canaryCount()
            do {
                let manager = ledger.makeManager()
                for status in [301, 302, 307] {
                    let outcome = try await Faults.run(
                        manager,
                        URLRequest(url: servers.url(.redirect(to: target, status: status)))
                    )
                    Faults.expectFailure(outcome, .unsupportedURL, .unsupportedScheme)
                }
                manager.invalidateAndCancel()
            }
            #expect(try servers.canaryCount() == canaryBefore, "a refused redirect connected to its target")
            await ledger.expectReturned()
        }

        // MARK: HTTPS to HTTP (case 8)

        @Test(arguments: [301, 302, 303, 307, 308])
        func httpsToHTTPOnTheSameHostIsRefused(status: Int) async throws {
            let marker = Faults.marker()
            let target = "http://localhost:\(servers.nginx.port ?? 0)/echo?\(marker)"
            let url = try #require(URL(string: servers.nginxTLS.absoluteString + "redirect/\(status)?to=\(target)"))
            let manager = SessionManager(
                configuration: Faults.configuration { $0.tls.caFile = servers.certificates.caBundle }
            )
            let outcome = try await Faults.run(manager, URLRequest(url: url))
            Faults.expectFailure(outcome, .appTransportSecurityRequiresSecureConnection, .insecureRedirect)
            #expect(servers.accessLogLines(containing: " /echo?\(marker)").isEmpty, "the http target was requested")
            manager.invalidateAndCancel()
        }

        @Test func httpsToHTTPIsFollowedWhenTheConfigurationAllowsIt() async throws {
            // The control for the test above: the same redirect, allowed, does reach nginx.
            let marker = Faults.marker()
            let target = "http://localhost:\(servers.nginx.port ?? 0)/echo?\(marker)"
            let url = try #require(URL(string: servers.nginxTLS.absoluteString + "redirect/302?to=\(target)"))
            let manager = SessionManager(
                configuration: Faults.configuration {
                    $0.tls.caFile = servers.certificates.caBundle
                    $0.redirects = .follow(max: 16, allowsHTTPSToHTTP: true)
                }
            )
            let outcome = try await Faults.run(manager, URLRequest(url: url))
            #expect(outcome.error == nil, "\(outcome.summary)")
            #expect(await servers.accessLogLines(containing: " /echo?\(marker)", atLeast: 1).count == 1)
            manager.invalidateAndCancel()
        }

        // MARK: Credentials across origins (cases 9 and 10)

        @Test func requestCredentialsDoNotCrossToAnotherHostOnTheSamePort() async throws {
            let port = servers.httpbin.port ?? 0
            var request = URLRequest(url: try redirect(via: servers.httpbin, to: "http://localhost:\(port)/headers"))
            request.setValue("Bearer secret", forHTTPHeaderField: "Authorization")
            request.setValue("sid=secret", forHTTPHeaderField: "Cookie")
            request.setValue("Basic c2VjcmV0", forHTTPHeaderField: "Proxy-Authorization")
            request.setValue("kept", forHTTPHeaderField: "X-Custom")
            let manager = SessionManager(configuration: Faults.configuration())
            let outcome = try await Faults.run(manager, request)
            let received = try headers(outcome)
            #expect(received["Host"] == "localhost:\(port)")
            #expect(received["Authorization"] == nil)
            #expect(received["Cookie"] == nil)
            #expect(received["Proxy-Authorization"] == nil)
            #expect(received["X-Custom"] == "kept")
            manager.invalidateAndCancel()
        }

        @Test func sessionWideCredentialsDoNotCrossToAnotherOrigin() async throws {
            // httpAdditionalHeaders are the caller's credentials for the origin it asked for,
            // not for whatever origin that server redirects to (curl CVE-2018-1000007 was this).
            let manager = SessionManager(
                configuration: Faults.configuration {
                    $0.httpAdditionalHeaders = [
                        "Authorization": "Bearer session-secret", "Cookie": "sid=session-secret",
                    ]
                }
            )
            let sameOrigin = try await Faults.run(
                manager,
                URLRequest(
                    url: try redirect(
                        via: servers.httpbin,
                        to: servers.httpbin.appendingPathComponent("headers").absoluteString
                    )
                )
            )
            #expect(
                try headers(sameOrigin)["Authorization"] == "Bearer session-secret",
                "control: the session header is sent at all"
            )

            let crossOrigin = try await Faults.run(
                manager,
                URLRequest(
                    url: try redirect(
                        via: servers.httpbin,
                        to: servers.httpbinAlt.appendingPathComponent("headers").absoluteString
                    )
                )
            )
            let received = try headers(crossOrigin)
            #expect(received["Host"] == "127.0.0.1:\(servers.httpbinAlt.port ?? 0)")
            #expect(received["Authorization"] == nil, "session Authorization reached another origin")
            #expect(received["Cookie"] == nil, "session Cookie reached another origin")
            manager.invalidateAndCancel()
        }

        @Test func userAndPasswordInTheURLDoNotCrossToAnotherPort() async throws {
            let manager = SessionManager(configuration: Faults.configuration())
            var direct = try #require(
                URLComponents(url: servers.httpbin.appendingPathComponent("headers"), resolvingAgainstBaseURL: false)
            )
            direct.user = "user"
            direct.password = "secret"
            let control = try await Faults.run(manager, URLRequest(url: try #require(direct.url)))
            #expect(
                try headers(control)["Authorization"] == "Basic dXNlcjpzZWNyZXQ=",
                "control: URL credentials are sent at all"
            )

            var redirecting = try #require(
                URLComponents(
                    url: try redirect(
                        via: servers.httpbin,
                        to: servers.httpbinAlt.appendingPathComponent("headers").absoluteString
                    ),
                    resolvingAgainstBaseURL: false
                )
            )
            redirecting.user = "user"
            redirecting.password = "secret"
            let outcome = try await Faults.run(manager, URLRequest(url: try #require(redirecting.url)))
            #expect(try headers(outcome)["Authorization"] == nil)
            manager.invalidateAndCancel()
        }

        @Test func userinfoInTheLocationIsNotSentToTheTarget() async throws {
            let alt = servers.httpbinAlt
            let target = "http://attacker:pw@127.0.0.1:\(alt.port ?? 0)/headers"
            let manager = SessionManager(configuration: Faults.configuration())
            let outcome = try await Faults.run(manager, URLRequest(url: try redirect(via: servers.httpbin, to: target)))
            #expect(try headers(outcome)["Authorization"] == nil)
            manager.invalidateAndCancel()
        }

        // MARK: Loops and chains (case 12)

        @Test func loopStopsAtTheConfiguredLimit() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            let before = Faults.faultLogLines(servers, containing: "GET /loop-").count
            do {
                let manager = ledger.makeManager { $0.redirects = .follow(max: 7) }
                let outcome = try await Faults.run(manager, URLRequest(url: servers.url(.loopA)))
                Faults.expectFailure(outcome, .httpTooManyRedirects, .tooManyRedirects)
                #expect(outcome.response.metrics?.redirectCount == 7)
                manager.invalidateAndCancel()
            }
            #expect(
                Faults.faultLogLines(servers, containing: "GET /loop-").count - before == 8,
                "the original request and 7 redirects"
            )
            await ledger.expectReturned()
        }

        @Test func threeHundredHopChainStopsAtTheDefaultLimit() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            do {
                let manager = ledger.makeManager()
                let outcome = try await Faults.run(manager, URLRequest(url: servers.url(.chain(300))))
                Faults.expectFailure(outcome, .httpTooManyRedirects, .tooManyRedirects)
                #expect(
                    outcome.response.metrics?.redirectCount == SessionConfiguration.default.redirects.maximumRedirects
                )
                manager.invalidateAndCancel()
            }
            let limit = SessionConfiguration.default.redirects.maximumRedirects
            #expect(Faults.faultLogLines(servers, containing: "GET /chain/\(300 - limit)").count == 1)
            #expect(
                Faults.faultLogLines(servers, containing: "GET /chain/\(300 - limit - 1)").isEmpty,
                "more than \(limit) redirects were followed"
            )
            await ledger.expectReturned()
        }

        // MARK: Methods and bodies (case 13)

        private func echoVia(
            status: Int,
            method: String,
            body: Data?,
            useUploadTask: Bool = false
        ) async throws -> FaultsEcho {
            let marker = Faults.marker()
            var request = URLRequest(url: servers.url(.redirect(to: "/echo?\(marker)", status: status)))
            request.httpMethod = method
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            let manager = SessionManager(configuration: Faults.configuration())
            defer { manager.invalidateAndCancel() }
            let log = FaultsCompletionLog<Data>()
            if useUploadTask, let body {
                manager.uploadTask(with: request, from: body, serializer: .passthrough) { log.record($0) }.resume()
            } else {
                request.httpBody = body
                manager.dataTask(with: request, serializer: .passthrough) { log.record($0) }.resume()
            }
            let response = try #require(await log.wait(seconds: 10))
            try await Task.sleep(for: Faults.settle)
            #expect(log.count == 1)
            #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
            #expect(response.metrics?.redirectCount == 1)
            return try FaultsEcho(response.value)
        }

        private func directEcho(method: String, body: Data) async throws -> FaultsEcho {
            var request = URLRequest(url: servers.url(.echo))
            request.httpMethod = method
            request.httpBody = body
            let manager = SessionManager(configuration: Faults.configuration())
            defer { manager.invalidateAndCancel() }
            return try FaultsEcho(try await Faults.run(manager, request).response.value)
        }

        @Test(arguments: [("POST", false), ("POST", true), ("PUT", false), ("DELETE", false)])
        func seeOtherBecomesAGETWithoutBodyOrContentType(method: String, useUploadTask: Bool) async throws {
            let echo = try await echoVia(
                status: 303,
                method: method,
                body: Data("a=1&b=2".utf8),
                useUploadTask: useUploadTask
            )
            #expect(echo.method == "GET")
            #expect(echo.header("Content-Type") == nil)
            #expect(echo.header("Content-Length") == nil)
            #expect(echo.header("Transfer-Encoding") == nil)
            #expect(echo.bodyLength == 0)
        }

        @Test(arguments: [
            (307, "POST", false), (308, "POST", false), (307, "POST", true), (308, "PUT", true), (307, "PATCH", false),
        ])
        func temporaryAndPermanentRedirectsKeepMethodAndBody(
            status: Int,
            method: String,
            useUploadTask: Bool
        ) async throws {
            let body = Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let echo = try await echoVia(status: status, method: method, body: body, useUploadTask: useUploadTask)
            let direct = try await directEcho(method: method, body: body)
            #expect(echo.method == method)
            #expect(echo.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(echo.bodyLength == body.count)
            #expect(echo.bodySHA256 == direct.bodySHA256, "the redirected body differs from the one sent")
        }

        @Test func aStreamedBodyIsNotReplayedAndTheRedirectIsDelivered() async throws {
            let marker = Faults.marker()
            var request = URLRequest(url: servers.url(.redirect(to: "/echo?\(marker)", status: 307)))
            request.httpMethod = "POST"
            request.httpBodyStream = InputStream(data: Data("once".utf8))
            let manager = SessionManager(configuration: Faults.configuration())
            let outcome = try await Faults.run(manager, request)
            #expect(outcome.completions == 1)
            #expect(outcome.response.response?.statusCode == 307)
            #expect(Faults.faultLogLines(servers, containing: " /echo?\(marker)").isEmpty)
            manager.invalidateAndCancel()
        }
    }
}
