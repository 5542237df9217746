internal import CCurl

/// The response cache in a transfer's hops (docs/auth-cookies-cache.md, "The response cache"):
/// ``CacheStep`` decides, this file applies. Before a hop is configured the engine asks
/// ``consultCache()``: a hop the cache answers is never given to libcurl but fed through the same
/// head and body path a network response takes (``serveCachedHop()``), so hooks, sinks,
/// dispositions and progress see no difference; a hop that revalidates sends the entry's
/// validators, and a `304` is replaced by the entry before anyone sees it. Storing is the task's
/// job, off the engine thread, once the transfer ended: the transfer only says what may be
/// stored (``cacheUpdate(head:)``).
extension Transfer {
    /// Whether this hop's response may come from, or go to, the session's cache.
    private var usesCache: Bool {
        configuration.urlCache != nil
            && CacheStep.applies(to: request, bodyKeptWhole: sink is MemorySink && output.parts == nil)
    }

    /// Decides how the hop about to begin is answered; `true` when the cache answers it (the
    /// engine then calls ``serveCachedHop()`` instead of adding a handle). Throws when the
    /// request's policy forbids loading and nothing usable is stored (``CacheStep/begin``).
    func consultCache() throws -> Bool {
        guard let url else { return false }
        let cache = usesCache ? configuration.urlCache : nil
        let policy = request.cachePolicy
        guard cache != nil || policy == .returnCacheDataDontLoad else { return false }
        machine.hop.cache = try CacheStep.begin(
            policy: policy,
            fields: cache == nil ? [] : hopHeaderFields(for: url),
            entry: cache.flatMap { StoredResponse($0.cachedResponse(for: request), for: url) },
            consulted: cache != nil,
            configured: configuration.urlCache != nil,
            url: url,
            now: Date()
        )
        guard case .serving = machine.hop.cache else { return false }
        counters.metrics.resourceFetchType = .localCache
        return true
    }

    /// Replaces a `304` that answers this hop's validators with the entry it confirmed.
    func headAfterRevalidation(_ head: ResponseHead) -> ResponseHead {
        guard machine.hop.consultsCache else { return head }
        let head = CacheStep.head(head, at: &machine.hop.cache, requestTime: machine.hop.requestTime, now: Date())
        if case .revalidated = machine.hop.cache { counters.metrics.resourceFetchType = .revalidated }
        return head
    }

    /// Delivers the body of the entry a `304` confirmed, at the end of the hop; returns the code
    /// the hop ends with (a write error when the body was refused).
    func deliverRevalidatedBody(_ code: CURLcode) -> CURLcode {
        guard code == CURLE_OK, let body = machine.hop.cache?.revalidatedBody, machine.isLive else { return code }
        return deliverStored(body) ? code : CURLE_WRITE_ERROR
    }

    /// Feeds the entry that answers this hop through the head and body path, as far as the
    /// state machine lets it (``CacheStep/serveNext()``): a deferred disposition or a suspension
    /// stops it, and ``Transfer/perform(_:)`` calls it again when the pause is lifted.
    func serveCachedHop() {
        while machine.isLive, machine.pause == .none, let next = machine.hop.cache?.serveNext() {
            switch next {
            case .head(let head):
                machine.hop.responseTime = Date()
                observer.transferWillSend(request, expectedToSend: nil)
                if didReceiveHead(head) == .refuse { return engine.endHop(self, code: CURLE_WRITE_ERROR) }
            case .body(let data):
                if !deliverStored(data) { return engine.endHop(self, code: CURLE_WRITE_ERROR) }
            case .end:
                return engine.endHop(self, code: CURLE_OK)
            }
        }
    }

    /// Feeds a stored body through the write path; whether all of it was taken.
    private func deliverStored(_ data: Data) -> Bool {
        data.isEmpty || data.withUnsafeBytes { didReceiveBody($0) } == data.count
    }

    /// Whether the head being delivered came from the cache, whose body is not on the wire.
    var headIsFromCache: Bool { machine.hop.cache?.answersFromCache ?? false }

    /// What the task may store once the transfer succeeded (``CacheStep/update(for:applies:bodyBytes:capacity:requestFields:)``).
    func cacheUpdate() -> CacheUpdate? {
        guard let cache = configuration.urlCache, let url else { return nil }
        return CacheStep.update(
            for: machine.hop,
            applies: usesCache,
            bodyBytes: counters.receivedBytes,
            capacity: CacheRules.capacity(memory: cache.memoryCapacity, disk: cache.diskCapacity),
            requestFields: { hopHeaderFields(for: url) }
        )
    }
}
