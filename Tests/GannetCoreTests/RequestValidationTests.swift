import Foundation
import GannetTestSupport
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

private let base = URL(string: "http://127.0.0.1:8080/path")!

/// The code of the `GannetError` `body` throws, or `nil` when it does not throw one.
private func thrownCode(_ body: () throws -> Void) -> GannetError.Code? {
    do {
        try body()
        return nil
    } catch {
        return (error as? GannetError)?.code
    }
}

@Suite("RequestValidation: nothing is sent that the caller did not mean")
struct RequestValidationTests {
    @Test(arguments: ["GET", "POST", "PATCH", "M-SEARCH", "PROPFIND", "get", "X_CUSTOM.1"])
    func tokensAreValidMethods(method: String) {
        #expect(thrownCode { try RequestValidation.validate(method: method, url: base, headers: []) } == nil)
    }

    @Test(arguments: [
        "", "G T", "GET /x HTTP/1.1\r\nX-Injected: 1", "GET\n", "GET\r", "GET\u{0}", "GET\t", "G\u{c9}T", "GET/",
        "(GET)", "GET\u{7f}",
    ])
    func nonTokenMethodsAreInvalidRequests(method: String) {
        #expect(
            thrownCode { try RequestValidation.validate(method: method, url: base, headers: []) } == .invalidRequest
        )
    }

    @Test(arguments: ["", "X A", "X-A\r\nX-Injected", "X-A:", "X\u{0}A", "\u{c4}", "X-A\n", "X-A\r", "X-A\t"])
    func invalidHeaderNames(name: String) {
        #expect(
            thrownCode { try RequestValidation.validate(method: "GET", url: base, headers: [(name, "v")]) }
                == .invalidHeader
        )
    }

    @Test(arguments: ["a\r\nX-Injected: 1", "a\rb", "a\nb", "a\u{0}b", "a\u{1}b", "a\u{7f}b", "\u{1b}[31m", "\r\n"])
    func controlCharactersInHeaderValuesAreInvalidHeaders(value: String) {
        #expect(
            thrownCode { try RequestValidation.validate(method: "GET", url: base, headers: [("X-Value", value)]) }
                == .invalidHeader
        )
    }

    @Test(arguments: [
        "", "a b", "a\tb", "caf\u{e9}", "text/html; charset=utf-8", "  padded  ", "\"quoted\", (comment)",
    ])
    func visibleCharactersSpacesTabsAndObsTextAreValidValues(value: String) {
        #expect(
            thrownCode { try RequestValidation.validate(method: "GET", url: base, headers: [("X-Value", value)]) }
                == nil
        )
    }

    @Test func theFirstBadHeaderIsReportedWithoutItsValue() throws {
        let url = try #require(URL(string: "http://user:hunter2@127.0.0.1:8080/"))
        do {
            try RequestValidation.validate(
                method: "GET",
                url: url,
                headers: [("X-Fine", "ok"), ("Authorization", "Bearer s3cr3t\r\nX-Injected: 1")]
            )
            Issue.record("validation passed")
        } catch let error as GannetError {
            #expect(error.code == .invalidHeader)
            #expect(error.message.contains("Authorization"))
            #expect(!error.description.contains("s3cr3t"), "the error repeats the header value: \(error)")
            #expect(!error.description.contains("hunter2"), "the error repeats the URL password: \(error)")
            #expect(error.failingURL?.password == nil)
        }
    }

    @Test(arguments: [
        "ftp://127.0.0.1/x", "file:///etc/passwd", "gopher://127.0.0.1/x", "dict://127.0.0.1/x", "ws://127.0.0.1/",
        "mailto:a@b.example", "data:text/plain,hi", "/relative/path",
    ])
    func onlyHTTPAndHTTPSAreSupported(string: String) throws {
        let url = try #require(URL(string: string))
        #expect(thrownCode { try RequestValidation.validate(url: url) } == .unsupportedScheme)
    }

    @Test(arguments: [
        "http://127.0.0.1/", "HTTPS://localhost:8443/a?b=c", "http://[::1]:80/", "http://user:pw@example.com/",
    ])
    func absoluteHTTPURLsWithAHostAreValid(string: String) throws {
        let url = try #require(URL(string: string))
        #expect(thrownCode { try RequestValidation.validate(url: url) } == nil)
    }

    @Test func anHTTPURLWithoutAHostIsAnInvalidRequest() throws {
        let url = try #require(URL(string: "http:/just/a/path"))
        #expect(thrownCode { try RequestValidation.validate(url: url) } == .invalidRequest)
    }

    /// Foundation percent-encodes a space or control character anywhere in a URL string, so
    /// `absoluteString` never holds one; the host, though, is handed out decoded, and libcurl
    /// receives the encoded form. A host that decodes to CR/LF is not a host anyone meant.
    @Test(arguments: [
        "http://a%0d%0ab/", "http://127.0.0.1%0d%0aX-Injected%3a%20yes/", "http://a%00b/", "http://a%20b/",
    ])
    func hostsThatDecodeToControlCharactersOrSpacesAreInvalidRequests(string: String) throws {
        let url = try #require(URL(string: string))
        #expect(
            thrownCode { try RequestValidation.validate(url: url) } == .invalidRequest,
            "host \(String(reflecting: url.host)) passed validation"
        )
    }
}

/// The byte scan answers the common URL shape without Foundation's parser; wherever it answers,
/// it must give Foundation's verdict, and it must leave every other shape to Foundation.
@Suite("RequestValidation: the byte scan agrees with Foundation")
struct AuthorityScanTests {
    /// What the scan says of `string`'s URL: `nil` when it leaves the URL to Foundation.
    private func scan(_ url: URL) -> RequestValidation.Verdict? {
        var string = url.absoluteString
        return string.withUTF8 { RequestValidation.AuthorityScan.verdict(of: $0) }
    }

    private func foundation(_ url: URL) -> RequestValidation.Verdict {
        RequestValidation.foundationVerdict(url: url, absoluteString: url.absoluteString)
    }

    @Test(arguments: [
        "http://127.0.0.1/", "http://127.0.0.1:8080/path?q=1#f", "HTTPS://Example.COM", "https://a.example:443",
        "http://user:pw@example.com/", "http://u%40x:p%3Aw@host:1/", "http://host:/", "http://host:0/",
        "http://host:65535/", "http://host:080/a", "http://a-b_c~d.e/", "hTtP://x?y", "http://x#y", "http://x/@y",
        "http://a?b@c/", "http://@host/",
        // Foundation percent-encodes the first `@`: one user-info, host `c`.
        "http://a@b@c/",
    ])
    func theScanAnswersTheCommonShapeAsFoundationDoes(string: String) throws {
        let url = try #require(URL(string: string))
        let verdict = try #require(scan(url), "the scan left \(string) to Foundation")
        #expect(verdict == foundation(url))
        #expect(verdict == RequestValidation.Verdict(problem: nil, isHTTP: true))
    }

    @Test(arguments: [
        "http://[::1]:80/", "http://a%0d%0ab/", "http://a%20b/", "http://127.0.0.1%0d%0aX-Injected%3a%20yes/",
        "http:/just/a/path", "http:///path", "http://host:65536/", "http://host:123456/",
        // Twenty-six digits: more than an Int holds (the url-validation fuzz target's crash).
        "http://p:33333333333333333333333333", "http://host:99999999999999999999/",
        "http://ho!st/", "ftp://127.0.0.1/x", "httpx://a/", "http:a",
        "/relative/path", "mailto:a@b.example",
    ])
    func everyOtherShapeIsLeftToFoundation(string: String) throws {
        let url = try #require(URL(string: string))
        #expect(scan(url) == nil, "the scan judged \(url.absoluteString) itself")
    }

    /// The verdicts the engine gives, through whichever path answers.
    @Test func theEnginesVerdictsAreUnchanged() throws {
        let cases: [(String, GannetError.Code?)] = [
            ("http://127.0.0.1:8080/", nil), ("http://host:65536/", .invalidRequest), ("http:///path", .invalidRequest),
            ("http://a%0d%0ab/", .invalidRequest), ("ftp://h/", .unsupportedScheme), ("HTTPS://h:1/", nil),
            // Foundation's verdict, no crash: the request check passes it, libcurl refuses the port.
            ("http://p:33333333333333333333333333", nil),
        ]
        for (string, code) in cases {
            let url = try #require(URL(string: string))
            #expect(thrownCode { try RequestValidation.validate(url: url) } == code, "\(string)")
            #expect(
                thrownCode { try RequestValidation.validate(method: "GET", url: url, headers: [("A", "b")]) } == code,
                "\(string)"
            )
        }
    }
}

/// A request the engine must refuse before a byte is sent.
struct FaultsInjection: Sendable, CustomTestStringConvertible {
    let testDescription: String
    let expected: GannetError.Code
    let configure: @Sendable (inout SessionConfiguration) -> Void
    let build: @Sendable (inout URLRequest) -> Void

    init(
        _ description: String,
        _ expected: GannetError.Code,
        build: @escaping @Sendable (inout URLRequest) -> Void = { _ in },
        configure: @escaping @Sendable (inout SessionConfiguration) -> Void = { _ in }
    ) {
        testDescription = description
        self.expected = expected
        self.configure = configure
        self.build = build
    }

    static let all: [FaultsInjection] = [
        // Foundation drops a CR/LF value given to setValue, but not one given through
        // allHTTPHeaderFields, nor a bad name, nor a session-wide header.
        FaultsInjection("CRLF in a header value", .invalidHeader) {
            $0.allHTTPHeaderFields = ["X-Note": "a\r\nX-Injected: yes"]
        },
        FaultsInjection("bare LF in a header value", .invalidHeader) {
            $0.allHTTPHeaderFields = ["X-Note": "a\nX-Injected: yes"]
        },
        FaultsInjection("bare CR in a header value", .invalidHeader) {
            $0.allHTTPHeaderFields = ["X-Note": "a\rX-Injected: yes"]
        },
        FaultsInjection("NUL in a header value", .invalidHeader) { $0.allHTTPHeaderFields = ["X-Note": "a\u{0}b"] },
        FaultsInjection("control character in a header value", .invalidHeader) {
            $0.setValue("a\u{1}b", forHTTPHeaderField: "X-Note")
        },
        FaultsInjection("CRLF in a header name", .invalidHeader) {
            $0.setValue("yes", forHTTPHeaderField: "X-Note\r\nX-Injected")
        },
        FaultsInjection("colon in a header name", .invalidHeader) {
            $0.setValue("yes", forHTTPHeaderField: "X-Injected: yes\r\nX-Note")
        },
        FaultsInjection("space in a header name", .invalidHeader) { $0.setValue("yes", forHTTPHeaderField: "X Note") },
        FaultsInjection(
            "CRLF in a session-wide header",
            .invalidHeader,
            configure: { $0.httpAdditionalHeaders = ["X-Session": "a\r\nX-Injected: yes"] }
        ),
        FaultsInjection("CRLF in the method", .invalidRequest) {
            $0.httpMethod = "GET /other HTTP/1.1\r\nX-Injected: yes\r\n\r\nGET"
        },
        FaultsInjection("space in the method", .invalidRequest) { $0.httpMethod = "GET /other" },
        FaultsInjection("NUL in the method", .invalidRequest) { $0.httpMethod = "GET\u{0}" },
    ]
}

extension FaultsSerialSuites {
    @Suite("Request validation, end to end: refused before anything is sent")
    struct RequestValidationEndToEndTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        @Test(arguments: FaultsInjection.all)
        func injectionIsRefusedBeforeSending(_ injection: FaultsInjection) async throws {
            let ledger = try await FaultsLedger.begin(servers)
            let marker = Faults.marker()
            do {
                let manager = ledger.makeManager(injection.configure)
                var request = URLRequest(url: servers.url(FaultRoute("/echo?\(marker)")))
                injection.build(&request)
                let outcome = try await Faults.run(manager, request)
                #expect(outcome.completions == 1)
                // Documented: validation failures are a GannetError itself, not a URLError.
                let error = try #require(
                    outcome.error as? GannetError,
                    "expected a GannetError, got \(outcome.summary)"
                )
                #expect(error.code == injection.expected, "\(outcome.summary)")
                #expect(error.failingURL?.path == "/echo")
                #expect(outcome.response.response == nil)
                manager.invalidateAndCancel()
            }
            try await Task.sleep(for: .milliseconds(100))
            #expect(Faults.faultLogLines(servers, containing: marker).isEmpty, "the fault server received the request")
            await ledger.expectReturned()
        }

        @Test func aValidRequestDoesReachTheLog() async throws {
            // The control for the test above: the log does show a request that was sent.
            let marker = Faults.marker()
            let manager = SessionManager(configuration: Faults.configuration())
            let outcome = try await Faults.run(manager, URLRequest(url: servers.url(FaultRoute("/echo?\(marker)"))))
            #expect(outcome.error == nil)
            #expect(Faults.faultLogLines(servers, containing: marker) == ["GET /echo?\(marker)"])
            manager.invalidateAndCancel()
        }

        @Test func spacesAndControlCharactersInAURLStringGoOutPercentEncoded() async throws {
            let marker = Faults.marker()
            let string = servers.url(.echo).absoluteString + "?\(marker)=a b\r\nX-Injected: yes\u{0}"
            let url = try #require(URL(string: string))
            let manager = SessionManager(configuration: Faults.configuration())
            let outcome = try await Faults.run(manager, URLRequest(url: url))
            let echo = try FaultsEcho(outcome.response.data)
            #expect(echo.requestLine == "GET /echo?\(marker)=a%20b%0D%0AX-Injected:%20yes%00 HTTP/1.1")
            #expect(echo.header("X-Injected") == nil)
            manager.invalidateAndCancel()
        }

        @Test func aHostThatDecodesToCRLFIsRefusedByValidation() async throws {
            let manager = SessionManager(configuration: Faults.configuration())
            let url = try #require(
                URL(string: "http://127.0.0.1%0d%0aX-Injected%3a%20yes:\(servers.fault.port ?? 0)/echo")
            )
            let outcome = try await Faults.run(manager, URLRequest(url: url))
            #expect(outcome.completions == 1)
            #expect(outcome.response.value == nil)
            #expect((outcome.error as? GannetError)?.code == .invalidRequest, "\(outcome.summary)")
            manager.invalidateAndCancel()
        }

        @Test func theAsyncAPIThrowsTheValidationError() async throws {
            let manager = SessionManager(configuration: Faults.configuration())
            var request = URLRequest(url: servers.url(.echo))
            request.allHTTPHeaderFields = ["X-Note": "a\r\nX-Injected: yes"]
            do {
                _ = try await manager.data(for: request)
                Issue.record("the request was sent")
            } catch let error as GannetError {
                #expect(error.code == .invalidHeader)
            }
            manager.invalidateAndCancel()
        }
    }
}
