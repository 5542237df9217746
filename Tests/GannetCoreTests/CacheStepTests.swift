import Foundation
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cache step of a hop, without a socket or a URLCache: where it applies, how a hop
/// begins, what a `304` becomes, and what a finished transfer leaves to store.
@Suite struct CacheStepTests {
    private static let url = URL(string: "https://example.test/a")!
    private static let now = Date(timeIntervalSince1970: 1_000_000)

    private func entry(_ fields: [HTTPField] = [HTTPField(name: "ETag", value: "\"v1\"")]) -> StoredResponse {
        StoredResponse(
            url: Self.url,
            statusCode: 200,
            fields: fields,
            data: Data("cached".utf8),
            requestTime: Self.now,
            responseTime: Self.now,
            varying: [:]
        )
    }

    private func head(_ status: Int, _ fields: [(String, String)] = []) -> ResponseHead {
        ResponseHead(statusCode: status, httpVersion: "HTTP/1.1", fields: fields.map { (name: $0.0, value: $0.1) })
    }

    @Test func onlyAWholeGETOverHTTPUsesTheCache() {
        var request = URLRequest(url: Self.url)
        #expect(CacheStep.applies(to: request, bodyKeptWhole: true))
        #expect(!CacheStep.applies(to: request, bodyKeptWhole: false))
        request.httpMethod = "POST"
        #expect(!CacheStep.applies(to: request, bodyKeptWhole: true))
        #expect(!CacheStep.applies(to: URLRequest(url: URL(string: "ftp://example.test/a")!), bodyKeptWhole: true))
    }

    @Test func aFreshEntryIsServedAndAStaleOneWithAValidatorRevalidated() throws {
        let fresh = entry([HTTPField(name: "Cache-Control", value: "max-age=60")])
        let served = try CacheStep.begin(
            policy: .useProtocolCachePolicy,
            fields: [],
            entry: fresh,
            consulted: true,
            configured: true,
            url: Self.url,
            now: Self.now
        )
        #expect(served == .serving(fresh, next: .head))
        let stale = entry()
        let revalidating = try CacheStep.begin(
            policy: .useProtocolCachePolicy,
            fields: [],
            entry: stale,
            consulted: true,
            configured: true,
            url: Self.url,
            now: Self.now.addingTimeInterval(3_600)
        )
        #expect(revalidating == .revalidating(stale))
        #expect(revalidating?.conditions == [HTTPField(name: "If-None-Match", value: "\"v1\"")])
        #expect(revalidating?.answersFromCache == false)
    }

    @Test func dontLoadWithNothingUsableIsResourceUnavailable() {
        for configured in [true, false] {
            #expect(throws: URLError.self) {
                _ = try CacheStep.begin(
                    policy: .returnCacheDataDontLoad,
                    fields: [],
                    entry: nil,
                    consulted: configured,
                    configured: configured,
                    url: Self.url,
                    now: Self.now
                )
            }
        }
        #expect(
            (try? CacheStep.begin(
                policy: .useProtocolCachePolicy,
                fields: [],
                entry: nil,
                consulted: false,
                configured: false,
                url: Self.url,
                now: Self.now
            )) == .some(nil)
        )
    }

    @Test func aNotModifiedIsReplacedByTheEntryAndAnyOtherHeadEndsTheRevalidation() {
        var step: CacheStep? = .revalidating(entry())
        let delivered = CacheStep.head(head(304), at: &step, requestTime: Self.now, now: Self.now)
        #expect(delivered.statusCode == 200)
        guard case .revalidated = step else {
            Issue.record("a 304 confirms the entry: \(String(describing: step))")
            return
        }
        #expect(step?.answersFromCache == true)
        var other: CacheStep? = .revalidating(entry())
        #expect(CacheStep.head(head(200), at: &other, requestTime: Self.now, now: Self.now).statusCode == 200)
        #expect(other == nil)
    }

    @Test func whatAFinishedTransferLeaves() {
        func update(_ method: String, _ status: Int, step: CacheStep? = nil) -> CacheUpdate? {
            var request = URLRequest(url: Self.url)
            request.httpMethod = method
            var hop = Hop(request: request, limits: SessionConfiguration.Limits())
            hop.head = head(status, [("Cache-Control", "max-age=60")])
            hop.cache = step
            hop.requestTime = Self.now
            hop.responseTime = Self.now
            return CacheStep.update(
                for: hop,
                applies: method == "GET",
                bodyBytes: 2,
                capacity: 1 << 20,
                requestFields: { [] }
            )
        }
        guard case .invalidate = update("POST", 201) else {
            Issue.record("a successful POST invalidates")
            return
        }
        #expect(update("POST", 500) == nil)
        guard case .store(let stored) = update("GET", 200) else {
            Issue.record("a cacheable GET is stored")
            return
        }
        #expect(stored.statusCode == 200)
        guard case .refresh = update("GET", 200, step: .revalidated(entry())) else {
            Issue.record("a confirmed entry is refreshed")
            return
        }
        #expect(update("GET", 200, step: .serving(entry(), next: .end)) == nil)
    }

    @Test func aServedEntryGivesItsHeadThenItsBodyThenTheEnd() {
        var step = CacheStep.serving(entry(), next: .head)
        #expect(step.serveNext() == .head(entry().head))
        #expect(step.serveNext() == .body(Data("cached".utf8)))
        #expect(step.serveNext() == .end)
        // The end is the last step: asked again (after a pause), the hop still ends.
        #expect(step.serveNext() == .end)
        #expect(step.revalidatedBody == nil)
        var revalidating = CacheStep.revalidating(entry())
        #expect(revalidating.serveNext() == nil)
        #expect(revalidating.revalidatedBody == nil)
    }

    @Test func aConfirmedEntrysBodyIsDeliveredAtTheHopsEnd() {
        var step: CacheStep? = .revalidating(entry())
        _ = CacheStep.head(head(304), at: &step, requestTime: Self.now, now: Self.now)
        #expect(step?.revalidatedBody == Data("cached".utf8))
        #expect(step?.serveNext() == nil)
    }
}
