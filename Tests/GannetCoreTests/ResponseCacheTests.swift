import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 12: the response cache, against httpbin (`/cache`, `/cache/{n}`, `/etag/{etag}`,
/// `/response-headers`) and nginx (`/cacheable/…`, whose body is a new `$request_id` for every
/// request nginx answers). Every hit is proved on the server's side too: its access log shows
/// what reached it, and what did not.
@Suite("Response cache")
struct ResponseCacheTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// A manager with a memory cache of its own.
    private func manager(memory: Int = 8 << 20) -> (SessionManager, URLCache) {
        let cache = URLCache(memoryCapacity: memory, diskCapacity: 0, diskPath: nil)
        var configuration = SessionConfiguration.default
        configuration.urlCache = cache
        configuration.httpCookieStorage = EphemeralCookieStorage()
        return (SessionManager(configuration: configuration), cache)
    }

    private func get(
        _ manager: SessionManager,
        _ url: URL,
        policy: URLRequest.CachePolicy = .useProtocolCachePolicy,
        headers: [String: String] = [:],
        method: String = "GET"
    ) async -> DataResponse<Data> {
        var request = URLRequest(url: url)
        request.cachePolicy = policy
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return await perform(manager, request)
    }

    private func text(_ response: DataResponse<Data>) -> String {
        String(decoding: response.data ?? Data(), as: UTF8.self)
    }

    /// A path no other test (or run) asks for, to count its lines in a log.
    private func unique(_ path: String) -> String {
        "\(path)?run=\(UUID().uuidString)"
    }

    // MARK: Hits and revalidation

    @Test func httpbinsCacheNIsAnsweredFromTheCacheWithoutReachingTheServer() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let path = unique("/cache/60")
        let url = servers.httpbin.adding(path)
        let first = await get(manager, url, headers: ["X-Probe": "first"])
        #expect(first.response?.statusCode == 200, "\(String(describing: first.error))")
        #expect(first.metrics?.resourceFetchType == .networkLoad)
        let second = await get(manager, url, headers: ["X-Probe": "second"])
        #expect(second.response?.statusCode == 200)
        #expect(second.metrics?.resourceFetchType == .localCache)
        // httpbin echoes the request's headers: the second body is the first request's.
        let echoed = try json(second.data)["headers"] as? [String: String]
        #expect(echoed?["X-Probe"] == "first")
        #expect(second.data == first.data)
        #expect(second.response?.value(forHTTPHeaderField: "Cache-Control") == "public, max-age=60")
        let lines = await servers.httpbinAccessLogLines(containing: path, atLeast: 1)
        #expect(lines.count == 1, "\(lines)")
    }

    @Test func httpbinsCacheIsRevalidatedAndItsNotModifiedBecomesTheStored200() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let path = unique("/cache")
        let url = servers.httpbin.adding(path)
        let first = await get(manager, url, headers: ["X-Probe": "first"])
        #expect(first.response?.statusCode == 200, "\(String(describing: first.error))")
        #expect(first.response?.value(forHTTPHeaderField: "ETag") != nil)
        // No freshness information: the stored response is revalidated, with its validators.
        let second = await get(manager, url, headers: ["X-Probe": "second"])
        #expect(second.response?.statusCode == 200, "\(String(describing: second.error))")
        #expect(second.metrics?.resourceFetchType == .revalidated)
        #expect(second.data == first.data)
        let lines = await servers.httpbinAccessLogLines(containing: path, atLeast: 2)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.last?.contains("\" 304 ") == true, "\(lines)")
    }

    @Test func anETagIsSentBackAndA304AnswersWithTheStoredBody() async throws {
        let (manager, cache) = manager()
        defer { manager.invalidateAndCancel() }
        let tag = "gannet-\(UUID().uuidString.prefix(8))"
        let url = servers.httpbin.adding("/etag/\(tag)")
        let first = await get(manager, url)
        #expect(first.response?.statusCode == 200, "\(String(describing: first.error))")
        #expect(cache.cachedResponse(for: URLRequest(url: url)) != nil)
        let second = await get(manager, url)
        #expect(second.response?.statusCode == 200)
        #expect(second.metrics?.resourceFetchType == .revalidated)
        #expect(second.data == first.data)
        #expect(second.response?.value(forHTTPHeaderField: "ETag")?.contains(tag) == true)
        let lines = await servers.httpbinAccessLogLines(containing: "/etag/\(tag)", atLeast: 2)
        #expect(lines.map { $0.contains("\" 304 ") } == [false, true], "\(lines)")
    }

    @Test func anExpiresDateGivesFreshnessAndOneInThePastDoesNot() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        for (offset, answers) in [(3600.0, 1), (-3600.0, 2)] {
            var components = URLComponents(
                url: servers.httpbin.adding("/response-headers"),
                resolvingAgainstBaseURL: true
            )!
            let run = UUID().uuidString
            components.queryItems = [
                URLQueryItem(name: "Expires", value: formatter.string(from: Date().addingTimeInterval(offset))),
                URLQueryItem(name: "run", value: run),
            ]
            let url = try #require(components.url)
            let first = await get(manager, url)
            #expect(first.response?.statusCode == 200, "\(String(describing: first.error))")
            let second = await get(manager, url)
            #expect(second.metrics?.resourceFetchType == (answers == 1 ? .localCache : .networkLoad))
            let lines = await servers.httpbinAccessLogLines(containing: run, atLeast: answers)
            #expect(lines.count == answers, "Expires \(offset) s from now: \(lines)")
        }
    }

    @Test func aNoCacheResponseIsStoredButRevalidatedEveryTime() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let path = unique("/cacheable/no-cache")
        let url = servers.nginx.adding(path)
        let first = await get(manager, url)
        let second = await get(manager, url)
        let third = await get(manager, url)
        #expect(
            [first, second, third].map { $0.metrics?.resourceFetchType } == [.networkLoad, .revalidated, .revalidated]
        )
        #expect(Set([first, second, third].map(\.data)).count == 1)
        let lines = await servers.accessLogLines(containing: path, atLeast: 3)
        #expect(lines.map { $0.contains("\" 304 ") } == [false, true, true], "\(lines)")
    }

    @Test func aRedirectIsFollowedFromTheNetworkAndItsTargetAnsweredFromTheCache() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let run = UUID().uuidString
        let target = "/cache/60?run=\(run)"
        var components = URLComponents(url: servers.httpbin.adding("/redirect-to"), resolvingAgainstBaseURL: true)!
        components.queryItems = [URLQueryItem(name: "url", value: target)]
        let url = try #require(components.url)
        let first = await get(manager, url)
        #expect(first.response?.statusCode == 200, "\(String(describing: first.error))")
        let second = await get(manager, url)
        #expect(second.metrics?.resourceFetchType == .localCache)
        #expect(second.metrics?.redirectCount == 1)
        #expect(second.data == first.data)
        // Two redirects from httpbin, one answer for their target.
        let lines = await servers.httpbinAccessLogLines(containing: run, atLeast: 3)
        #expect(lines.filter { $0.contains("/redirect-to") }.count == 2, "\(lines)")
        #expect(lines.filter { $0.contains("GET \(target)") }.count == 1, "\(lines)")
    }

    @Test func aDeferredDispositionAndASuspendHoldACachedResponseUntilLifted() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding(unique("/cacheable/fresh"))
        let first = await get(manager, url)
        let asked = CallCounter()
        manager.setDataTaskDidReceiveResponse(deferred: { _, task, _, decide in
            asked.increment()
            task.suspend()
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
                decide(.allow)
                task.resume()
            }
        })
        let second = await get(manager, url)
        #expect(asked.value == 1)
        #expect(second.metrics?.resourceFetchType == .localCache)
        #expect(second.data == first.data)
    }

    // MARK: What is stored

    @Test func willCacheResponseCanRefuseAnEntry() async throws {
        let (manager, cache) = manager()
        defer { manager.invalidateAndCancel() }
        let offered = CallCounter()
        manager.setDataTaskWillCacheResponse { _, _, proposed in
            offered.increment()
            #expect((proposed.response as? HTTPURLResponse)?.statusCode == 200)
            return nil
        }
        let url = servers.nginx.adding(unique("/cacheable/fresh"))
        let first = await get(manager, url)
        #expect(cache.cachedResponse(for: URLRequest(url: url)) == nil)
        let second = await get(manager, url)
        #expect(offered.value == 2)
        #expect(second.metrics?.resourceFetchType == .networkLoad)
        #expect(first.data != second.data)
    }

    @Test func willCacheResponseCanReplaceAnEntry() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        manager.setDataTaskWillCacheResponse { _, _, proposed in
            CachedURLResponse(response: proposed.response, data: Data("replaced".utf8))
        }
        let url = servers.nginx.adding(unique("/cacheable/fresh"))
        let first = await get(manager, url)
        #expect(text(first) != "replaced")
        let second = await get(manager, url)
        #expect(second.metrics?.resourceFetchType == .localCache)
        #expect(text(second) == "replaced")
    }

    @Test(arguments: ["/cacheable/no-store", "/cacheable/vary-star"])
    func responsesThatForbidStoringAreNotStored(path: String) async throws {
        let (manager, cache) = manager()
        defer { manager.invalidateAndCancel() }
        let unique = unique(path)
        let url = servers.nginx.adding(unique)
        let first = await get(manager, url)
        #expect(first.response?.statusCode == 200)
        #expect(cache.cachedResponse(for: URLRequest(url: url)) == nil)
        let second = await get(manager, url)
        #expect(second.data != first.data)
        let lines = await servers.accessLogLines(containing: unique, atLeast: 2)
        #expect(lines.count == 2)
    }

    @Test func aRequestWithNoStoreIsNeitherAnsweredNorStored() async throws {
        let (manager, cache) = manager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding(unique("/cacheable/fresh"))
        _ = await get(manager, url, headers: ["Cache-Control": "no-store"])
        #expect(cache.cachedResponse(for: URLRequest(url: url)) == nil)
    }

    @Test func varyIsRespected() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding(unique("/cacheable/vary"))
        let a1 = await get(manager, url, headers: ["X-Variant": "a"])
        let a2 = await get(manager, url, headers: ["X-Variant": "a"])
        let b = await get(manager, url, headers: ["X-Variant": "b"])
        #expect(text(a1).hasPrefix("a "))
        #expect(a2.data == a1.data)
        #expect(a2.metrics?.resourceFetchType == .localCache)
        #expect(text(b).hasPrefix("b "), "another X-Variant is not answered by a's response")
        #expect(b.metrics?.resourceFetchType == .networkLoad)
    }

    @Test func theQueryIsPartOfTheKey() async throws {
        // swift-corelibs-foundation's URLCache keys entries by host and path only.
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let run = UUID().uuidString
        let one = await get(manager, servers.nginx.adding("/cacheable/fresh?x=1&run=\(run)"))
        let two = await get(manager, servers.nginx.adding("/cacheable/fresh?x=2&run=\(run)"))
        #expect(two.metrics?.resourceFetchType == .networkLoad)
        #expect(one.data != two.data)
    }

    @Test func entriesOverFivePercentOfTheCacheAreNotStored() async throws {
        // 1m.bin (1 MiB, with nginx's ETag) is over 5% of 16 MiB and under 5% of 32 MiB.
        for (capacity, stored) in [(16 << 20, false), (32 << 20, true)] {
            let (manager, cache) = manager(memory: capacity)
            defer { manager.invalidateAndCancel() }
            let url = servers.nginx.adding("/files/1m.bin")
            let response = await get(manager, url)
            #expect(response.data?.count == 1 << 20)
            #expect((cache.cachedResponse(for: URLRequest(url: url)) != nil) == stored, "capacity \(capacity)")
        }
    }

    @Test func aSuccessfulPostMakesTheStoredResponseStale() async throws {
        let (manager, cache) = manager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding(unique("/cacheable/fresh"))
        let first = await get(manager, url)
        #expect(cache.cachedResponse(for: URLRequest(url: url)) != nil)
        let post = await get(manager, url, method: "POST")
        #expect(post.response?.statusCode == 200)
        let after = await get(manager, url)
        #expect(after.metrics?.resourceFetchType == .networkLoad)
        #expect(after.data != first.data)
    }

    // MARK: Cache policies

    @Test func reloadIgnoringLocalCacheDataLoadsAndStoresTheNewResponse() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding(unique("/cacheable/fresh"))
        let first = await get(manager, url)
        let reloaded = await get(manager, url, policy: .reloadIgnoringLocalCacheData)
        #expect(reloaded.metrics?.resourceFetchType == .networkLoad)
        #expect(reloaded.data != first.data)
        let after = await get(manager, url)
        #expect(after.metrics?.resourceFetchType == .localCache)
        #expect(after.data == reloaded.data)
    }

    @Test func aRequestThatSaysNoCacheIsNotAnsweredByAFreshEntry() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding(unique("/cacheable/fresh"))
        let first = await get(manager, url)
        let again = await get(manager, url, headers: ["Cache-Control": "no-cache"])
        #expect(again.metrics?.resourceFetchType == .networkLoad)
        #expect(again.data != first.data)
    }

    @Test func returnCacheDataElseLoadUsesAStaleEntryAndLoadsWhenThereIsNone() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let path = unique("/cacheable/no-cache")
        let url = servers.nginx.adding(path)
        let loaded = await get(manager, url, policy: .returnCacheDataElseLoad)
        #expect(loaded.metrics?.resourceFetchType == .networkLoad)
        let stale = await get(manager, url, policy: .returnCacheDataElseLoad)
        #expect(stale.metrics?.resourceFetchType == .localCache)
        #expect(stale.data == loaded.data)
        let lines = await servers.accessLogLines(containing: path, atLeast: 1)
        #expect(lines.count == 1, "\(lines)")
    }

    @Test func returnCacheDataDontLoadUsesTheEntryOrFailsWithoutSending() async throws {
        let (manager, _) = manager()
        defer { manager.invalidateAndCancel() }
        let stored = unique("/cacheable/no-cache")
        let first = await get(manager, servers.nginx.adding(stored))
        let offline = await get(manager, servers.nginx.adding(stored), policy: .returnCacheDataDontLoad)
        #expect(offline.metrics?.resourceFetchType == .localCache)
        #expect(offline.data == first.data)
        let missing = unique("/cacheable/fresh")
        let refused = await get(manager, servers.nginx.adding(missing), policy: .returnCacheDataDontLoad)
        #expect((refused.error as? URLError)?.code == .resourceUnavailable, "\(String(describing: refused.error))")
        // Something that was sent would be in the log by now: the stored path's one line is.
        _ = await servers.accessLogLines(containing: stored, atLeast: 1)
        #expect(servers.accessLogLines(containing: missing).isEmpty)
    }
}
