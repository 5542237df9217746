/// A response as Gannet keeps it in a `URLCache`: the `CachedURLResponse` the cache holds, read
/// back with what HTTP caching needs and `HTTPURLResponse` cannot carry (when it was requested
/// and received, what the request sent of the fields `Vary` names). Those go in the cached
/// response's `userInfo` under ``Key``, a documented, versioned layout
/// (docs/auth-cookies-cache.md).
struct StoredResponse: Equatable, @unchecked Sendable {
    // @unchecked: every stored property is a value; `userInfo` holds only property-list values
    // (strings, numbers, dictionaries of them) that Gannet wrote or the caller's hook returned,
    // and is never mutated after the entry is read.
    var url: URL
    var statusCode: Int
    var fields: [HTTPField]
    var data: Data
    var requestTime: Date
    var responseTime: Date
    /// What the request sent of each field `Vary` names (lower-cased names).
    var varying: [String: String]
    var storagePolicy: URLCache.StoragePolicy = .allowed
    /// The caller's own `userInfo` entries, kept when the entry is refreshed.
    var callerInfo: [AnyHashable: Any] = [:]

    /// The `userInfo` keys Gannet writes.
    enum Key {
        static let version = "GannetCache.version"
        static let url = "GannetCache.url"
        static let requestTime = "GannetCache.requestTime"
        static let responseTime = "GannetCache.responseTime"
        static let varying = "GannetCache.vary"
        static let all: Set<String> = [version, url, requestTime, responseTime, varying]
    }

    static let version = 1

    static func == (a: StoredResponse, b: StoredResponse) -> Bool {
        a.url == b.url && a.statusCode == b.statusCode && a.fields == b.fields && a.data == b.data
            && a.requestTime == b.requestTime && a.responseTime == b.responseTime && a.varying == b.varying
    }

    /// Reads what `cache` holds for `url`. `nil` when there is nothing, when the entry is not an
    /// HTTP response, or when it was stored for another URL: swift-corelibs-foundation's
    /// `URLCache` keys its entries by host and path only, so `/a?x=1` and `/a?x=2` share one
    /// slot, and the entry's own URL decides.
    init?(_ cached: CachedURLResponse?, for url: URL) {
        guard let cached, let response = cached.response as? HTTPURLResponse else { return nil }
        let info = cached.userInfo ?? [:]
        let storedURL = (info[Key.url] as? String) ?? response.url?.absoluteString
        guard storedURL == url.absoluteString else { return nil }
        self.url = url
        statusCode = response.statusCode
        fields = response.allHeaderFields.compactMap { name, value in
            guard let name = name as? String, let value = value as? String else { return nil }
            return HTTPField(name: name, value: value)
        }
        data = cached.data
        // An entry someone else stored (or a hook replaced without Gannet's keys): no request
        // time is known, so it counts as requested and received when its `Date` says.
        let dated =
            fields.value(named: "Date").flatMap { RetryAfter.date(fromHTTPDate: $0) } ?? Date(timeIntervalSince1970: 0)
        requestTime = (info[Key.requestTime] as? Double).map(Date.init(timeIntervalSince1970:)) ?? dated
        responseTime = (info[Key.responseTime] as? Double).map(Date.init(timeIntervalSince1970:)) ?? dated
        varying = Self.strings(info[Key.varying])
        storagePolicy = cached.storagePolicy
        callerInfo = info.filter { key, _ in !(key.base is String && Key.all.contains(key.base as! String)) }
    }

    init(
        url: URL,
        statusCode: Int,
        fields: [HTTPField],
        data: Data,
        requestTime: Date,
        responseTime: Date,
        varying: [String: String]
    ) {
        self.url = url
        self.statusCode = statusCode
        self.fields = fields
        self.data = data
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.varying = varying
    }

    /// A `[String: String]` read back from a property list, which may come back with
    /// `AnyHashable` keys.
    private static func strings(_ value: Any?) -> [String: String] {
        if let strings = value as? [String: String] { return strings }
        guard let any = value as? [AnyHashable: Any] else { return [:] }
        var strings: [String: String] = [:]
        for (key, value) in any {
            if let key = key.base as? String, let value = value as? String { strings[key] = value }
        }
        return strings
    }

    /// Whether a request that sends `requestFields` is answered by this entry: it sends the
    /// same value (or none) for every field `Vary` names.
    func matchesVary(_ requestFields: [HTTPField]) -> Bool {
        guard let names = CacheRules.varyingNames(fields) else { return false }
        return CacheRules.varyingValues(names: names, requestFields: requestFields) == varying
    }

    /// The response head the caller receives for this entry.
    var head: ResponseHead {
        ResponseHead(statusCode: statusCode, httpVersion: "HTTP/1.1", fields: fields.map { ($0.name, $0.value) })
    }

    /// The entry as a `CachedURLResponse`, Gannet's keys beside the caller's.
    func cachedResponse(response: HTTPURLResponse? = nil) -> CachedURLResponse? {
        guard
            let response = response
                ?? HTTPURLResponse(
                    url: url,
                    statusCode: statusCode,
                    httpVersion: "HTTP/1.1",
                    headerFields: head.mergedFields
                )
        else { return nil }
        return CachedURLResponse(response: response, data: data, userInfo: userInfo, storagePolicy: storagePolicy)
    }

    /// `callerInfo` with Gannet's keys.
    var userInfo: [AnyHashable: Any] {
        var info = callerInfo
        info[Key.version] = Self.version
        info[Key.url] = url.absoluteString
        info[Key.requestTime] = requestTime.timeIntervalSince1970
        info[Key.responseTime] = responseTime.timeIntervalSince1970
        info[Key.varying] = varying
        return info
    }

    /// The entry after a `304` confirmed it (RFC 9111 §4.3.4): each field the `304` sends
    /// replaces the stored ones of that name, except the framing and `Content-Length`, which
    /// describe the stored body; the times are the revalidation's.
    func refreshed(by notModified: ResponseHead, requestTime: Date, responseTime: Date) -> StoredResponse {
        var refreshed = self
        let kept: Set<String> = CacheRules.unstoredFields.union(["content-length"])
        let updates = notModified.fields.filter { !kept.contains($0.name.lowercased()) }
        let replaced = Set(updates.map { $0.name.lowercased() })
        refreshed.fields.removeAll { replaced.contains($0.name.lowercased()) }
        refreshed.fields += updates.map { HTTPField(name: $0.name, value: $0.value) }
        refreshed.requestTime = requestTime
        refreshed.responseTime = responseTime
        return refreshed
    }
}
