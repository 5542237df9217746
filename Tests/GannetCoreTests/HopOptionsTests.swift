import Foundation
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a hop makes of an easy handle, without a socket: the header fields a hop sends, the
/// refusals before anything is sent, and the header lists libcurl is given (``HopOptions``).
@Suite struct HopOptionsTests {
    private static let origin = URL(string: "https://example.test/a")!

    private func fields(_ pairs: [(String, String)]) -> [HTTPField] {
        pairs.map { HTTPField(name: $0.0, value: $0.1) }
    }

    // MARK: Header fields

    @Test func theSessionsCredentialGoesOnlyToTheCallersOrigin() {
        var configuration = SessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["Authorization": "Basic dTpw", "X-Session": "1"]
        configuration.httpCookieStorage = nil
        let request = URLRequest(url: Self.origin)
        let same = HopOptions.headerFields(
            request: request,
            url: Self.origin,
            additionalHeaders: configuration.httpAdditionalHeaders,
            cookieStorage: configuration.httpCookieStorage,
            callerURL: Self.origin
        )
        #expect(same.contains(HTTPField(name: "Authorization", value: "Basic dTpw")))
        let elsewhere = HopOptions.headerFields(
            request: request,
            url: URL(string: "https://elsewhere.test/b")!,
            additionalHeaders: configuration.httpAdditionalHeaders,
            cookieStorage: configuration.httpCookieStorage,
            callerURL: Self.origin
        )
        #expect(!elsewhere.contains { $0.name == "Authorization" }, "\(elsewhere)")
        #expect(elsewhere.contains(HTTPField(name: "X-Session", value: "1")))
    }

    @Test func theRequestsOwnFieldWinsOverTheSessions() {
        var configuration = SessionConfiguration.ephemeral
        configuration.httpAdditionalHeaders = ["accept": "text/plain"]
        var request = URLRequest(url: Self.origin)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let sent = HopOptions.headerFields(
            request: request,
            url: Self.origin,
            additionalHeaders: configuration.httpAdditionalHeaders,
            cookieStorage: configuration.httpCookieStorage,
            callerURL: Self.origin
        )
        #expect(
            sent.filter { $0.name.lowercased() == "accept" } == [HTTPField(name: "Accept", value: "application/json")]
        )
    }

    // MARK: Refusals before anything is sent

    private func check(
        _ url: URL = Self.origin,
        fields: [HTTPField] = [],
        secure: Bool = false,
        elapsed: Double = 0,
        configuration: SessionConfiguration = .ephemeral
    ) throws -> Double {
        try HopOptions.check(
            url: url,
            method: "GET",
            fields: fields,
            routing: configuration.routing,
            resourceTimeout: configuration.timeoutIntervalForResource,
            requiresSecureTransport: secure,
            elapsed: elapsed
        )
    }

    @Test func aFieldThatCannotBeSentIsRefused() {
        #expect(throws: GannetError.self) { try check(fields: fields([("X-Bad", "a\r\nInjected: 1")])) }
        #expect(throws: GannetError.self) { try check(fields: fields([("Bad Name", "1")])) }
    }

    @Test func plainHTTPUnderAnEvaluatorThatRequiresHTTPSIsRefused() throws {
        #expect(throws: (any Error).self) { try check(URL(string: "http://example.test/a")!, secure: true) }
        _ = try check(secure: true)
    }

    @Test func thePassedResourceTimeoutIsRefusedAndTheRestIsReturned() throws {
        var configuration = SessionConfiguration.ephemeral
        configuration.timeoutIntervalForResource = 10
        #expect(try check(elapsed: 4, configuration: configuration) == 6)
        #expect(throws: (any Error).self) { try check(elapsed: 10, configuration: configuration) }
    }

    // MARK: The lists libcurl is given

    @Test func aProxyCredentialGoesToTheProxyListOnly() {
        let lines = HopOptions.headerLines(
            fields([("Proxy-Authorization", "Basic cDpx"), ("X-Empty", ""), ("Accept", "*/*"), ("X-Name", "café")]),
            removing: ["Expect"]
        )
        #expect(lines.origin == ["X-Empty;", "Accept: */*", "X-Name: café", "Expect:"])
        #expect(lines.proxy == ["Proxy-Authorization: Basic cDpx"])
    }

    @Test func expectIsNeverSentAndLibcurlFramesTheBodyItself() {
        let easy = EasyHandle()
        var sent = fields([("Content-Length", "3"), ("Transfer-Encoding", "chunked"), ("X-A", "1")])
        let post = HopOptions.setBodyAndHeaders(
            easy,
            method: "POST",
            source: .data(Data("abc".utf8)),
            fields: &sent,
            acceptEncodingLine: nil
        )
        #expect(post.expectedToSend == 3)
        #expect(sent == fields([("X-A", "1")]), "libcurl writes the framing itself")
        // No Content-Type was given: libcurl's form type is removed too.
        #expect(post.headers.lines == ["X-A: 1", "Expect:", "Content-Type:"])
        #expect(post.proxyHeaders == nil)

        // libcurl writes `Expect` only for a body it sends: a hop without one needs no line.
        var none: [HTTPField] = []
        let get = HopOptions.setBodyAndHeaders(easy, method: "GET", source: nil, fields: &none, acceptEncodingLine: nil)
        #expect(get.expectedToSend == nil)
        #expect(get.headers.lines == [])
        let head = HopOptions.setBodyAndHeaders(
            easy,
            method: "HEAD",
            source: .data(Data("abc".utf8)),
            fields: &none,
            acceptEncodingLine: nil
        )
        #expect(head.expectedToSend == nil)
        #expect(head.headers.lines == [])
    }

    @Test func methodsAndFramingFieldsAreMatchedWhateverTheirCase() {
        let easy = EasyHandle()
        var sent = fields([("content-LENGTH", "3"), ("TRANSFER-encoding", "chunked"), ("X-A", "1")])
        let put = HopOptions.setBodyAndHeaders(
            easy,
            method: "put",
            source: .data(Data("abc".utf8)),
            fields: &sent,
            acceptEncodingLine: nil
        )
        #expect(put.expectedToSend == 3)
        #expect(sent == fields([("X-A", "1")]))
        var none: [HTTPField] = []
        let head = HopOptions.setBodyAndHeaders(
            easy,
            method: "head",
            source: .data(Data("abc".utf8)),
            fields: &none,
            acceptEncodingLine: nil
        )
        #expect(head.expectedToSend == nil, "a HEAD in any case sends no body")

        // A redirect's hop: a GET or HEAD in any case sends no body; another method its own.
        var body = TransferBody(source: .data(Data("abc".utf8)))
        var next = URLRequest(url: URL(string: "http://127.0.0.1/")!)
        let previous = next
        next.httpMethod = "head"
        body.choose(for: next, previous: previous)
        #expect(body.source == nil)
        next.httpMethod = "Post"
        next.httpBody = Data("xyz".utf8)
        body.choose(for: next, previous: previous)
        guard case .data(let data) = body.source else {
            Issue.record("expected the redirect's own body")
            return
        }
        #expect(data == Data("xyz".utf8))
    }
}
