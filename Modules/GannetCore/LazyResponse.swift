internal import Synchronization

/// Builds a response's `HTTPURLResponse` on first use. Foundation's initializer costs about
/// as much CPU as the rest of a small exchange together (measured with callgrind: 63k
/// instructions of 300k per request), so paths that never look at it do not pay for it.
final class LazyResponse: Sendable {
    private let head: ResponseHead
    private let url: URL
    private let isPrebuilt: Bool
    /// Whether `head` is the parsed head rather than a stand-in holding only the status.
    private let hasHead: Bool
    private let cache = Mutex<CachedResponse?>(nil)

    // @unchecked: HTTPURLResponse is immutable once built.
    private struct CachedResponse: @unchecked Sendable { let response: HTTPURLResponse? }

    init(head: ResponseHead, url: URL) {
        self.head = head
        self.url = url
        isPrebuilt = false
        hasHead = true
    }

    /// Wraps a response that was already built (a hook needed it during the transfer), with
    /// the head it was built from when there is one.
    init(prebuilt response: HTTPURLResponse, head: ResponseHead? = nil) {
        self.head = head ?? ResponseHead(statusCode: response.statusCode, httpVersion: "", fields: [])
        hasHead = head != nil
        url = response.url ?? URL(fileURLWithPath: "/")
        isPrebuilt = true
        cache.withLock { $0 = CachedResponse(response: response) }
    }

    var value: HTTPURLResponse? {
        cache.withLock { cached in
            if let cached { return cached.response }
            let response = head.makeResponse(url: url)
            cached = CachedResponse(response: response)
            return response
        }
    }

    var statusCode: Int { head.statusCode }

    /// A header's value from the parsed head, without building the `HTTPURLResponse`;
    /// repeated fields are joined with ", " as `HTTPURLResponse` joins them.
    func headerValue(_ name: String) -> String? {
        if isPrebuilt { return value?.value(forHTTPHeaderField: name) }
        let values = head.fields.filter { ASCII.equalsIgnoringCase($0.name, name) }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }

    /// The header fields as they arrived (order, case and repeats kept), or, without the
    /// parsed head, the built response's fields sorted by name.
    var headerFields: [(name: String, value: String)] {
        if hasHead { return head.fields }
        let fields = (value?.allHeaderFields ?? [:]).compactMap { key, value -> (name: String, value: String)? in
            guard let name = key as? String else { return nil }
            return (name, "\(value)")
        }
        return fields.sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The status line's version (`HTTP/1.1`, `HTTP/2`), `nil` without the parsed head.
    var httpVersion: String? { hasHead && !head.httpVersion.isEmpty ? head.httpVersion : nil }
}
