internal import Synchronization

/// Builds a response's `HTTPURLResponse` on first use. Foundation's initializer costs about
/// as much CPU as the rest of a small exchange together (measured with callgrind: 63k
/// instructions of 300k per request), so paths that never look at it do not pay for it.
package final class LazyResponse: Sendable {
    private let head: ResponseHead
    private let url: URL
    private let isPrebuilt: Bool
    /// The head as parsed, when there was one (a prebuilt response may come without).
    package let rawHead: ResponseHead?
    private let cache = Mutex<CachedResponse?>(nil)

    // @unchecked: HTTPURLResponse is immutable once built.
    private struct CachedResponse: @unchecked Sendable { let response: HTTPURLResponse? }

    package init(head: ResponseHead, url: URL) {
        self.head = head
        self.url = url
        isPrebuilt = false
        rawHead = head
    }

    /// Wraps a response that was already built (a hook needed it during the transfer); a
    /// one-argument initializer, so that `LazyResponse.init(prebuilt:)` can be passed to `map`.
    package convenience init(prebuilt response: HTTPURLResponse) {
        self.init(prebuilt: response, head: nil)
    }

    /// Wraps a response that was already built, with the parsed head it was built from when
    /// there is one.
    package init(prebuilt response: HTTPURLResponse, head parsed: ResponseHead?) {
        rawHead = parsed
        head = parsed ?? ResponseHead(statusCode: response.statusCode, httpVersion: "", fields: [])
        url = response.url ?? URL(fileURLWithPath: "/")
        isPrebuilt = true
        cache.withLock { $0 = CachedResponse(response: response) }
    }

    package var value: HTTPURLResponse? {
        cache.withLock { cached in
            if let cached { return cached.response }
            let response = head.makeResponse(url: url)
            cached = CachedResponse(response: response)
            return response
        }
    }

    package var statusCode: Int { head.statusCode }

    /// Whether the `HTTPURLResponse` exists yet (the tests of ResponseView.swift).
    package var isBuilt: Bool { cache.withLock { $0 != nil } }

    /// A header's value from the parsed head, without building the `HTTPURLResponse`;
    /// repeated fields are joined with ", " as `HTTPURLResponse` joins them.
    package func headerValue(_ name: String) -> String? {
        if isPrebuilt { return value?.value(forHTTPHeaderField: name) }
        return head.fields.joinedValue(named: name)
    }

    /// The media type of the `Content-Type` header, read from the parsed head
    /// (``ResponseHead/Fields/contentType``) without building the `HTTPURLResponse`.
    package var contentType: MediaType? {
        isPrebuilt ? value.flatMap(MediaType.init(contentTypeOf:)) : head.fields.contentType
    }

    /// The header fields as they arrived (order, case and repeats kept), or, without the
    /// parsed head, the built response's fields sorted by name.
    package var headerFields: [(name: String, value: String)] {
        if let rawHead { return Array(rawHead.fields) }
        let fields = (value?.allHeaderFields ?? [:]).compactMap { key, value -> (name: String, value: String)? in
            guard let name = key as? String else { return nil }
            return (name, "\(value)")
        }
        return fields.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The status line's version (`HTTP/1.1`, `HTTP/2`), `nil` without the parsed head.
    package var httpVersion: String? { rawHead.flatMap { $0.httpVersion.isEmpty ? nil : $0.httpVersion } }
}
