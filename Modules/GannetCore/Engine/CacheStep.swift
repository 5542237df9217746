/// What the session's response cache does for one hop (docs/auth-cookies-cache.md, "The
/// response cache"), decided from the request, the head and the stored entry with no I/O: the
/// transfer looks the entry up, feeds a served entry through its head and body path, and hands
/// ``CacheUpdate`` to the task side, which stores it off the engine thread
/// (Transfer+Cache.swift). The rules themselves are ``CacheRules``'; this value is where a hop
/// stands with them. Tested step by step in CacheStepTests.
enum CacheStep: Equatable {
    /// The request carries the entry's validators.
    case revalidating(StoredResponse)
    /// A `304` confirmed the entry: its head was delivered, its body follows at the hop's end.
    case revalidated(StoredResponse)
    /// The entry answers the hop; nothing is sent. `next` is what is delivered next.
    case serving(StoredResponse, next: ServingStep)

    enum ServingStep: Equatable {
        case head
        case body
        case end
    }

    /// Whether a hop's response may come from, or go to, the cache: a `GET` over http(s) whose
    /// body is kept whole in memory (a data task's, not split into parts).
    static func applies(to request: URLRequest, bodyKeptWhole: Bool) -> Bool {
        guard bodyKeptWhole, (request.httpMethod ?? "GET").uppercased() == "GET",
            let scheme = request.url?.scheme?.lowercased()
        else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// The step a hop to `url` begins with, `nil` when it goes to the network as it is.
    /// `entry` is what a cache that applies holds for the request (`consulted` says whether
    /// one was asked; `configured`, whether the session has one at all); `fields` are the
    /// fields the hop would send, which `Vary` is matched against. Throws
    /// `URLError.resourceUnavailable` when the request's policy forbids loading and nothing
    /// usable is stored, as NSURLSession does: nothing is sent then.
    static func begin(
        policy: URLRequest.CachePolicy,
        fields: [HTTPField],
        entry: StoredResponse?,
        consulted: Bool,
        configured: Bool,
        url: URL,
        now: Date
    ) throws -> CacheStep? {
        guard consulted else {
            if policy == .returnCacheDataDontLoad { throw nothingCached(url, configured: configured) }
            return nil
        }
        switch CacheRules.lookup(policy: policy, fields: fields, entry: entry, now: now) {
        case .network: return nil
        case .revalidate(let entry, _): return .revalidating(entry)
        case .serve(let entry): return .serving(entry, next: .head)
        case .unavailable: throw nothingCached(url, configured: true)
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
    var conditions: [HTTPField] {
        guard case .revalidating(let entry) = self else { return [] }
        return CacheRules.conditionalFields(for: entry)
    }

    /// Whether the head being delivered came from the cache (served, or confirmed by a `304`),
    /// whose body is not on the hop's wire.
    var answersFromCache: Bool {
        switch self {
        case .revalidated, .serving: return true
        case .revalidating: return false
        }
    }

    /// What a served entry delivers next through the transfer's head and body path.
    enum Served: Equatable {
        case head(ResponseHead)
        /// The entry's body (empty for an empty body).
        case body(Data)
        /// Nothing more: the hop ends cleanly.
        case end
    }

    /// Steps a served entry on: its head, then its body, then the end of the hop, each once.
    /// `nil` when the entry does not answer the hop.
    mutating func serveNext() -> Served? {
        guard case .serving(let entry, let next) = self else { return nil }
        switch next {
        case .head:
            self = .serving(entry, next: .body)
            return .head(entry.head)
        case .body:
            self = .serving(entry, next: .end)
            return .body(entry.data)
        case .end:
            return .end
        }
    }

    /// The body of the entry a `304` confirmed, which the transfer delivers when the hop
    /// ends (the `304` had none); `nil` in any other step.
    var revalidatedBody: Data? {
        guard case .revalidated(let entry) = self else { return nil }
        return entry.data
    }

    /// The head to deliver for `head`, which answers a hop at `step`: a `304` that answers the
    /// entry's validators is replaced by the entry it confirmed (refreshed with its fields and
    /// times); any other head is delivered as it is and ends the revalidation (the server sent
    /// a new body).
    static func head(
        _ head: ResponseHead,
        at step: inout CacheStep?,
        requestTime: Date,
        now: Date
    ) -> ResponseHead {
        guard case .revalidating(let entry) = step else { return head }
        guard head.statusCode == 304 else {
            step = nil
            return head
        }
        let refreshed = entry.refreshed(by: head, requestTime: requestTime, responseTime: now)
        step = .revalidated(refreshed)
        return refreshed.head
    }

    /// What a transfer that succeeded leaves for the cache, from its last `hop`: an unsafe
    /// request's success invalidates its URL (RFC 9111 §4.4); a network response is stored when
    /// the rules allow; an entry a `304` refreshed is refreshed; a response the cache served
    /// leaves nothing. `applies` is ``applies(to:bodyKeptWhole:)`` for the hop; `requestFields`
    /// (the fields sent, asked only when needed) select the `Vary` values; `capacity` is the
    /// cache's; the hop's request and response times are stored for the entry's age.
    static func update(
        for hop: Hop,
        applies: Bool,
        bodyBytes: Int64,
        capacity: Int,
        requestFields: () -> [HTTPField]
    ) -> CacheUpdate? {
        guard let url = hop.url else { return nil }
        let head = hop.head
        let method = hop.request.httpMethod ?? "GET"
        if !["GET", "HEAD"].contains(method.uppercased()) {
            guard let status = head?.statusCode, (200...399).contains(status) else { return nil }
            return .invalidate
        }
        guard applies, let head else { return nil }
        switch hop.cache {
        case .revalidated(let entry): return .refresh(entry)
        case .serving: return nil
        case .revalidating, nil: break
        }
        let sent = requestFields()
        let responseFields = head.fields.map { HTTPField(name: $0.name, value: $0.value) }
        if CacheRules.refusal(
            method: method,
            url: url,
            requestFields: sent,
            statusCode: head.statusCode,
            responseFields: responseFields,
            bodyBytes: bodyBytes,
            capacity: capacity
        ) != nil {
            return nil
        }
        let varying = CacheRules.varyingValues(
            names: CacheRules.varyingNames(responseFields) ?? [],
            requestFields: sent
        )
        return .store(
            StoredResponse(
                url: url,
                statusCode: head.statusCode,
                fields: responseFields.filter { !CacheRules.unstoredFields.contains($0.name.lowercased()) },
                data: Data(),
                requestTime: hop.requestTime,
                responseTime: hop.responseTime,
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
