internal import CCurl

/// The response cache in a transfer's hops (docs/auth-cookies-cache.md, "The response cache").
/// Before a hop is configured the engine asks ``consultCache()``: a hop the cache answers is
/// never given to libcurl but fed through the same head and body path a network response takes
/// (``serveCachedHop()``), so hooks, sinks, dispositions and progress see no difference; a hop
/// that revalidates sends the entry's validators, and a `304` is replaced by the entry before
/// anyone sees it. Storing is the task's job, off the engine thread, once the transfer ended
/// (docs/auth-cookies-cache.md): the transfer only says what may be stored (``cacheUpdate``).
extension Transfer {
    /// What the cache does for the current hop.
    enum CacheHop {
        /// The request carries the entry's validators.
        case revalidating(StoredResponse)
        /// A `304` confirmed the entry: its head was delivered, its body follows at the hop's end.
        case revalidated(StoredResponse)
        /// The entry answers the hop; nothing is sent. `next` is what is delivered next.
        case serving(StoredResponse, next: ServingStep)
    }

    enum ServingStep {
        case head
        case body
        case end
    }

    /// Whether this hop's response may come from, or go to, the session's cache: a data task's
    /// `GET` over http(s) whose body is kept in memory.
    private var usesCache: Bool {
        guard configuration.urlCache != nil, sink is MemorySink, mixedReplace == nil,
            (request.httpMethod ?? "GET").uppercased() == "GET",
            let scheme = url?.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return false }
        return true
    }

    /// Decides how the hop about to begin is answered; `true` when the cache answers it (the
    /// engine then calls ``serveCachedHop()`` instead of adding a handle). Throws
    /// `URLError.resourceUnavailable` when the request's policy forbids loading and nothing
    /// usable is stored, as NSURLSession does; nothing is sent then.
    func consultCache() throws -> Bool {
        guard let url else { return false }
        let policy = request.cachePolicy
        guard usesCache, let cache = configuration.urlCache else {
            if policy == .returnCacheDataDontLoad {
                throw Self.nothingCached(url, configured: configuration.urlCache != nil)
            }
            return false
        }
        let entry = StoredResponse(cache.cachedResponse(for: request), for: url)
        switch CacheRules.lookup(policy: policy, fields: hopHeaderFields(for: url), entry: entry, now: Date()) {
        case .network:
            return false
        case .revalidate(let entry, _):
            machine.hop.cache = .revalidating(entry)
            return false
        case .serve(let entry):
            machine.hop.cache = .serving(entry, next: .head)
            counters.metrics.resourceFetchType = .localCache
            return true
        case .unavailable:
            throw Self.nothingCached(url, configured: true)
        }
    }

    private static func nothingCached(_ url: URL, configured: Bool) -> any Error {
        let reason =
            configured
            ? "The request's cache policy forbids loading, and the cache holds no usable response for it"
            : "The request's cache policy forbids loading, and the session has no URLCache"
        return TransportError.make(
            .resourceUnavailable,
            underlying: GannetError(.invalidRequest, reason, failingURL: url),
            url: url
        )
    }

    /// The validators a revalidating hop sends with its fields.
    var cacheConditions: [HTTPField] {
        guard case .revalidating(let entry) = machine.hop.cache else { return [] }
        return CacheRules.conditionalFields(for: entry)
    }

    /// Replaces a `304` that answers this hop's validators with the entry it confirmed; any
    /// other head is returned as it is (and ends the revalidation: the server sent a new body).
    func headAfterRevalidation(_ head: ResponseHead) -> ResponseHead {
        guard case .revalidating(let entry) = machine.hop.cache else { return head }
        guard head.statusCode == 304 else {
            machine.hop.cache = nil
            return head
        }
        let refreshed = entry.refreshed(by: head, requestTime: machine.hop.requestTime, responseTime: Date())
        machine.hop.cache = .revalidated(refreshed)
        counters.metrics.resourceFetchType = .revalidated
        return refreshed.head
    }

    /// Delivers the body of the entry a `304` confirmed, at the end of the hop; returns the code
    /// the hop ends with (a write error when the body was refused).
    func deliverRevalidatedBody(_ code: CURLcode) -> CURLcode {
        guard code == CURLE_OK, case .revalidated(let entry) = machine.hop.cache, machine.isLive, !entry.data.isEmpty
        else {
            return code
        }
        let taken = entry.data.withUnsafeBytes { didReceiveBody($0) }
        return taken == entry.data.count ? code : CURLE_WRITE_ERROR
    }

    /// Feeds the entry that answers this hop through the head and body path, as far as the
    /// state machine lets it: a deferred disposition or a suspension stops it, and
    /// ``Transfer/perform(_:)`` calls it again when the pause is lifted.
    func serveCachedHop() {
        while case .serving(let entry, let step) = machine.hop.cache, machine.isLive, machine.pause == .none {
            switch step {
            case .head:
                machine.hop.responseTime = Date()
                observer.transferWillSend(request, expectedToSend: nil)
                machine.hop.cache = .serving(entry, next: .body)
                switch didReceiveHead(entry.head) {
                case .take, .pause: break
                case .refuse: return engine.endHop(self, code: CURLE_WRITE_ERROR)
                }
            case .body:
                machine.hop.cache = .serving(entry, next: .end)
                guard !entry.data.isEmpty else { continue }
                let taken = entry.data.withUnsafeBytes { didReceiveBody($0) }
                if taken != entry.data.count { return engine.endHop(self, code: CURLE_WRITE_ERROR) }
            case .end:
                return engine.endHop(self, code: CURLE_OK)
            }
        }
    }

    /// Whether the head being delivered came from the cache (served or confirmed by a `304`),
    /// whose body is not on this hop's wire.
    var headIsFromCache: Bool {
        switch machine.hop.cache {
        case .revalidated, .serving: return true
        case .revalidating, nil: return false
        }
    }

    /// What the task may store once the transfer succeeded: a network response that the rules
    /// allow, or an entry a `304` refreshed; `nil` for a response the cache answered.
    func cacheUpdate(head: ResponseHead?) -> CacheUpdate? {
        guard let url, let cache = configuration.urlCache else { return nil }
        let method = request.httpMethod ?? "GET"
        if !["GET", "HEAD"].contains(method.uppercased()) {
            // RFC 9111 §4.4: an unsafe request that succeeded invalidates what is stored for its URL.
            guard let status = head?.statusCode, (200...399).contains(status) else { return nil }
            return .invalidate
        }
        guard usesCache, let head else { return nil }
        switch machine.hop.cache {
        case .revalidated(let entry):
            return .refresh(entry)
        case .serving:
            return nil
        case .revalidating, nil:
            break
        }
        let requestFields = hopHeaderFields(for: url)
        let responseFields = head.fields.map { HTTPField(name: $0.name, value: $0.value) }
        let capacity = CacheRules.capacity(memory: cache.memoryCapacity, disk: cache.diskCapacity)
        if CacheRules.refusal(
            method: method,
            url: url,
            requestFields: requestFields,
            statusCode: head.statusCode,
            responseFields: responseFields,
            bodyBytes: counters.receivedBytes,
            capacity: capacity
        ) != nil {
            return nil
        }
        let varying = CacheRules.varyingValues(
            names: CacheRules.varyingNames(responseFields) ?? [],
            requestFields: requestFields
        )
        return .store(
            StoredResponse(
                url: url,
                statusCode: head.statusCode,
                fields: responseFields.filter { !CacheRules.unstoredFields.contains($0.name.lowercased()) },
                data: Data(),
                requestTime: machine.hop.requestTime,
                responseTime: machine.hop.responseTime,
                varying: varying
            )
        )
    }
}

/// What a finished transfer leaves for the session's cache, which the task side stores.
enum CacheUpdate: Sendable {
    /// A response from the network the rules allow storing; its body is the outcome's data.
    case store(StoredResponse)
    /// An entry a `304` confirmed, with the revalidation's fields and times.
    case refresh(StoredResponse)
    /// A successful unsafe request: what is stored for its URL is stale.
    case invalidate
}
