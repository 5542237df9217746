import Foundation
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What spans a transfer's hops and what one hop builds, without a socket: whether the body can
/// be sent again, the metrics at the end, and the hop's response built once.
@Suite struct TransferValuesTests {
    private static let url = URL(string: "https://example.test/a")!

    @Test func onlyAStreamWithNoWayToRenewItCannotBeSentAgain() {
        #expect(TransferBody(source: nil).canBeSentAgain(renewable: false))
        #expect(TransferBody(source: .data(Data("x".utf8))).canBeSentAgain(renewable: false))
        let stream = TransferBody(source: .stream(InputStream(data: Data("x".utf8))))
        #expect(!stream.canBeSentAgain(renewable: false))
        #expect(stream.canBeSentAgain(renewable: true))
    }

    @Test func theFinalMetricsCountTheBytesAndTheWholeDuration() {
        var counters = TransferCounters(idleTimeout: 1_000_000_000, now: 1_000_000_000)
        counters.receivedBytes = 42
        let metrics = counters.finalMetrics(sent: 7, now: 3_500_000_000)
        #expect(metrics.totalDuration == 2.5)
        #expect(metrics.countOfRequestBodyBytesSent == 7)
        #expect(metrics.countOfResponseBodyBytesReceived == 42)
    }

    @Test func aHopBuildsItsResponseOnceAndOnlyWithAHead() throws {
        var hop = Hop(request: URLRequest(url: Self.url), limits: SessionConfiguration.Limits())
        let none = hop.materializedResponse()
        #expect(none == nil)
        let head = ResponseHead(statusCode: 201, httpVersion: "HTTP/1.1", fields: [(name: "X-A", value: "1")])
        hop.head = head
        let built = hop.materializedResponse()
        let response = try #require(built)
        #expect(response.statusCode == 201)
        let again = hop.materializedResponse()
        #expect(again === response)
        let first = hop.lazyResponse()
        let lazy = try #require(first)
        #expect(lazy.statusCode == 201)
        #expect(lazy.value === response, "the lazy response is the one already built")
        let second = hop.lazyResponse()
        #expect(second === lazy, "one for each head")
        hop.head = ResponseHead(statusCode: 202, httpVersion: "HTTP/1.1", fields: [])
        let third = hop.lazyResponse()
        #expect(third?.statusCode == 202, "a new head has a new one")
    }

    @Test func aHopWithADigestOrNTLMCredentialAwaitsLibcurlsProbe() {
        func hop(_ scheme: HopCredential.Scheme?) -> Hop {
            let credential = scheme.map { HopCredential(user: "u", password: "p", scheme: $0, proxy: false) }
            return Hop(
                request: URLRequest(url: Self.url),
                credential: credential,
                limits: SessionConfiguration.Limits()
            )
        }
        #expect(!hop(nil).awaitsAuthenticationProbe)
        #expect(!hop(.basic).awaitsAuthenticationProbe)
        #expect(hop(.digest).awaitsAuthenticationProbe)
        #expect(hop(.ntlm).awaitsAuthenticationProbe)
    }

    /// A hop uses TLS when its URL's scheme is `https` in any case, its own or, for a relative
    /// URL, its base's: read from the absolute string, as Foundation's `scheme` gives it.
    @Test(arguments: [
        ("https://example.test/a", true), ("HTTPS://example.test", true), ("HtTpS://[::1]:8443/", true),
        ("http://example.test/a", false), ("httpsx://example.test", false), ("https", false), ("ftp://x", false),
    ])
    func aHopUsesTLSForHTTPSInAnyCase(string: String, usesTLS: Bool) throws {
        let url = try #require(URL(string: string))
        #expect(Hop(request: URLRequest(url: url), limits: SessionConfiguration.Limits()).usesTLS == usesTLS)
        #expect(Hop.isHTTPS(url) == (url.scheme?.lowercased() == "https"), "agrees with Foundation's scheme")
    }

    @Test func aRelativeURLUsesItsBasesScheme() throws {
        let relative = try #require(URL(string: "/b?c", relativeTo: URL(string: "https://example.test/a")))
        #expect(Hop.isHTTPS(relative))
        let plain = try #require(URL(string: "b", relativeTo: URL(string: "http://example.test/")))
        #expect(!Hop.isHTTPS(plain))
    }
}
