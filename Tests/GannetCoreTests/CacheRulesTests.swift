import Foundation
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The response cache's rules without a server: freshness and age (RFC 9111 §4.2), Vary,
/// what may be stored, and how a `304` refreshes an entry.
@Suite("Cache rules")
struct CacheRulesTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let url = URL(string: "http://example.com/a?x=1")!

    private func entry(
        _ fields: [(String, String)],
        receivedSecondsAgo: TimeInterval = 10,
        vary: [String: String] = [:]
    )
        -> StoredResponse
    {
        StoredResponse(
            url: url,
            statusCode: 200,
            fields: fields.map { HTTPField(name: $0.0, value: $0.1) },
            data: Data("body".utf8),
            requestTime: now.addingTimeInterval(-receivedSecondsAgo - 1),
            responseTime: now.addingTimeInterval(-receivedSecondsAgo),
            varying: vary
        )
    }

    private func lookup(
        _ entry: StoredResponse?,
        _ policy: URLRequest.CachePolicy = .useProtocolCachePolicy,
        request: [(String, String)] = []
    ) -> CacheRules.Lookup {
        CacheRules.lookup(
            policy: policy,
            fields: request.map { HTTPField(name: $0.0, value: $0.1) },
            entry: entry,
            now: now
        )
    }

    @Test func maxAgeDecidesFreshness() {
        let fresh = entry([("Cache-Control", "max-age=60")])
        #expect(lookup(fresh) == .serve(fresh))
        let stale = entry([("Cache-Control", "max-age=5")])
        #expect(lookup(stale) == .network, "stale without validators")
        let validated = entry([("Cache-Control", "max-age=5"), ("ETag", "\"v1\"")])
        #expect(
            lookup(validated) == .revalidate(validated, conditions: [HTTPField(name: "If-None-Match", value: "\"v1\"")])
        )
    }

    @Test func ageCountsTheAgeHeaderTheRoundTripAndTheTimeStored() {
        // Received 10 s ago with Age: 50 and a 1 s round trip: 61 s old now.
        let aged = entry([("Cache-Control", "max-age=60"), ("Age", "50")])
        #expect(CacheRules.currentAge(of: aged, now: now) == 61)
        #expect(lookup(aged) == .network)
    }

    @Test func expiresMinusDateIsTheLifetimeAndABadExpiresIsExpired() {
        let date = "Fri, 15 Jan 2027 08:00:00 GMT"
        let received = RetryAfter.date(fromHTTPDate: date)!
        var fresh = entry([("Date", date), ("Expires", "Fri, 15 Jan 2027 09:00:00 GMT")])
        fresh.responseTime = received
        fresh.requestTime = received
        #expect(CacheRules.freshnessLifetime(of: fresh) == 3600)
        #expect(CacheRules.freshnessLifetime(of: entry([("Expires", "0")])) == 0)
        #expect(CacheRules.freshnessLifetime(of: entry([("Expires", "later"), ("Cache-Control", "max-age=7")])) == 7)
    }

    @Test func noCacheOnEitherSideAndRequestMaxAgeForceRevalidation() {
        let fresh = entry([("Cache-Control", "max-age=600"), ("Last-Modified", "Fri, 15 Jan 2027 08:00:00 GMT")])
        let revalidate = CacheRules.Lookup.revalidate(
            fresh,
            conditions: [HTTPField(name: "If-Modified-Since", value: "Fri, 15 Jan 2027 08:00:00 GMT")]
        )
        #expect(lookup(fresh, request: [("Cache-Control", "no-cache")]) == revalidate)
        #expect(lookup(fresh, request: [("Pragma", "no-cache")]) == revalidate)
        #expect(lookup(fresh, request: [("Cache-Control", "max-age=5")]) == revalidate)
        #expect(lookup(fresh, request: [("Cache-Control", "max-age=500")]) == .serve(fresh))
        let noCache = entry([("Cache-Control", "no-cache, max-age=600"), ("ETag", "W/\"x\"")])
        #expect(
            lookup(noCache) == .revalidate(noCache, conditions: [HTTPField(name: "If-None-Match", value: "W/\"x\"")])
        )
    }

    @Test func eachPolicy() {
        let stale = entry([("Cache-Control", "max-age=0")])
        #expect(lookup(stale, .reloadIgnoringLocalCacheData) == .network)
        #expect(lookup(stale, .returnCacheDataElseLoad) == .serve(stale))
        #expect(lookup(stale, .returnCacheDataDontLoad) == .serve(stale))
        #expect(lookup(nil, .returnCacheDataElseLoad) == .network)
        #expect(lookup(nil, .returnCacheDataDontLoad) == .unavailable)
        #expect(lookup(nil) == .network)
    }

    @Test func aCallersConditionalOrRangeRequestIsLeftToTheCaller() {
        let fresh = entry([("Cache-Control", "max-age=600")])
        #expect(lookup(fresh, request: [("If-None-Match", "\"a\"")]) == .network)
        #expect(lookup(fresh, request: [("Range", "bytes=0-1")]) == .network)
    }

    @Test func varyMatchesTheSameValuesOrTheSameAbsence() {
        let varying = entry(
            [("Cache-Control", "max-age=600"), ("Vary", "Accept, X-Variant")],
            vary: ["accept": "a/b,c/d"]
        )
        #expect(lookup(varying, request: [("Accept", "a/b, c/d")]) == .serve(varying))
        #expect(lookup(varying, request: [("Accept", "a/b")]) == .network)
        #expect(lookup(varying, request: [("Accept", "a/b, c/d"), ("X-Variant", "1")]) == .network)
        #expect(CacheRules.varyingNames([HTTPField(name: "Vary", value: "a, *")]) == nil)
    }

    @Test func whatIsNeverStored() {
        func refusal(
            method: String = "GET",
            url: String = "http://example.com/",
            request: [(String, String)] = [],
            status: Int = 200,
            response: [(String, String)] = [],
            bytes: Int64 = 10,
            capacity: Int = 1000
        ) -> String? {
            CacheRules.refusal(
                method: method,
                url: URL(string: url)!,
                requestFields: request.map { HTTPField(name: $0.0, value: $0.1) },
                statusCode: status,
                responseFields: response.map { HTTPField(name: $0.0, value: $0.1) },
                bodyBytes: bytes,
                capacity: capacity
            )
        }
        #expect(refusal() == nil)
        #expect(refusal(bytes: 50) == nil)
        #expect(refusal(bytes: 51) != nil, "over 5% of the cache")
        #expect(refusal(method: "POST") != nil)
        #expect(refusal(url: "ftp://example.com/") != nil)
        #expect(refusal(status: 206) != nil)
        #expect(refusal(status: 301) != nil)
        #expect(refusal(status: 404) != nil)
        #expect(refusal(status: 204) == nil)
        #expect(refusal(request: [("Cache-Control", "no-store")]) != nil)
        #expect(refusal(response: [("Cache-Control", "private, NO-STORE")]) != nil)
        #expect(refusal(response: [("Cache-Control", "private=\"a, no-store\"")]) == nil, "inside a quoted argument")
        #expect(refusal(response: [("Vary", "*")]) != nil)
        #expect(refusal(response: [("Content-Type", "multipart/x-mixed-replace; boundary=b")]) != nil)
        #expect(refusal(request: [("Range", "bytes=0-")]) != nil)
    }

    @Test func a304ReplacesFieldsButNotTheBodysLengthOrFraming() {
        let stored = entry([
            ("Content-Length", "4"), ("ETag", "\"1\""), ("Cache-Control", "max-age=0"), ("X-Kept", "k"),
        ])
        let notModified = ResponseHead(
            statusCode: 304,
            httpVersion: "HTTP/1.1",
            fields: [
                ("ETag", "\"1\""), ("Cache-Control", "max-age=60"), ("Content-Length", "0"), ("Connection", "close"),
            ]
        )
        let refreshed = stored.refreshed(by: notModified, requestTime: now, responseTime: now)
        #expect(refreshed.fields.value(named: "Content-Length") == "4")
        #expect(refreshed.fields.value(named: "Cache-Control") == "max-age=60")
        #expect(refreshed.fields.value(named: "X-Kept") == "k")
        #expect(refreshed.fields.value(named: "Connection") == nil)
        #expect(refreshed.responseTime == now)
        #expect(lookup(refreshed) == .serve(refreshed))
    }

    @Test func anEntryIsReadBackOnlyForItsOwnURL() {
        let stored = entry([("Cache-Control", "max-age=60")], vary: ["accept": "x"])
        let cached = stored.cachedResponse()
        let readBack = StoredResponse(cached, for: url)
        #expect(readBack?.varying == ["accept": "x"])
        #expect(readBack?.responseTime == stored.responseTime)
        #expect(readBack?.data == stored.data)
        #expect(StoredResponse(cached, for: URL(string: "http://example.com/a?x=2")!) == nil)
    }
}
