/// Everything a finished task produced: the request that went out, the response, the raw
/// data, the serialized result and the transfer metrics.
public struct DataResponse<Output: Sendable>: Sendable {
    /// The last request sent (after redirects), or the original one if nothing was sent.
    public let request: URLRequest?
    /// The final HTTP response, if one arrived. Built on first access.
    public var response: HTTPURLResponse? { eagerResponse ?? lazyResponse?.value }
    private let eagerResponse: HTTPURLResponse?
    let lazyResponse: LazyResponse?
    /// The final response's status code, read from the parsed head: cheaper than
    /// `response?.statusCode`, which builds the `HTTPURLResponse`.
    public var statusCode: Int? { eagerResponse?.statusCode ?? lazyResponse?.statusCode }

    /// A header of the final response, by case-insensitive name, read from the parsed head;
    /// repeated fields are joined with ", ".
    public func headerValue(_ name: String) -> String? {
        if let eagerResponse { return eagerResponse.value(forHTTPHeaderField: name) }
        return lazyResponse?.headerValue(name)
    }

    /// The final response's reason phrase as the server sent it (`OK`, `FOUND`, `Teapot`),
    /// empty when it sent none (HTTP/2 has none). `nil` when no response arrived, or for a
    /// `DataResponse` made with the public initializer: `HTTPURLResponse` does not keep it.
    public var reasonPhrase: String? { lazyResponse?.rawHead?.reasonPhrase }

    /// The final response's head as parsed (for gannet, which prints it as received); users
    /// read ``reasonPhrase``, ``headerFields`` and ``httpVersion``.
    package var responseHead: ResponseHead? { lazyResponse?.rawHead }

    /// The final response's header fields as they arrived: in order, names as the server wrote
    /// them, a repeated field once per line (what `HTTPURLResponse.allHeaderFields` loses).
    /// Empty without a response; sorted by name for a response built by hand.
    public var headerFields: [(name: String, value: String)] {
        if let eagerResponse {
            return
                (eagerResponse.allHeaderFields.compactMap { key, value -> (name: String, value: String)? in
                    guard let name = key as? String else { return nil }
                    return (name, "\(value)")
                }).sorted { $0.name.lowercased() < $1.name.lowercased() }
        }
        return lazyResponse?.headerFields ?? []
    }

    /// The final response's status-line version (`HTTP/1.1`, `HTTP/2`), falling back to
    /// ``TaskMetrics/httpVersion``; `nil` when neither is known.
    public var httpVersion: String? { lazyResponse?.httpVersion ?? metrics?.httpVersion }

    /// The serialized value and the HTTP response of a task that succeeded.
    ///
    /// ```swift
    /// let (value, response) = try await manager.response(for: request, serializer: .passthrough).get()
    /// ```
    /// - Throws: the transport or serializer error of ``result``, or `URLError(.badServerResponse)`
    ///   (underlying `GannetError(.protocolViolation)`) when the task ended without a response.
    public func get() throws -> (value: Output, response: HTTPURLResponse) {
        let value = try result.get()
        guard let response else { throw missingResponse }
        return (value, response)
    }

    /// This response, when its task succeeded and a response arrived; otherwise throws what
    /// ``get()`` throws. What `HTTPSessionManager`'s async verbs return: their
    /// ``value`` and ``statusCode`` are then present. Reads the status from the parsed head,
    /// so it does not build the `HTTPURLResponse`.
    package func succeeded() throws -> Self {
        _ = try result.get()
        guard statusCode != nil else { throw missingResponse }
        return self
    }

    private var missingResponse: any Error {
        TransportError.make(
            .badServerResponse,
            underlying: GannetError(.protocolViolation, "No HTTP response"),
            url: request?.url
        )
    }

    /// The body as received, if any.
    public let data: Data?
    /// For a data task whose response disposition was ``ResponseDisposition/becomeDownload``:
    /// the downloaded file where it ended up (its destination, else the temporary file), `nil`
    /// when the download failed. `nil` for every other task (a download task's file is its
    /// ``value``).
    public internal(set) var fileURL: URL? = nil
    /// Timings and counters of the transfer.
    public let metrics: TaskMetrics?
    /// The serialized value, or the transport or serialization error.
    public let result: Result<Output, any Error>

    /// Creates a response; the session creates these, tests may too.
    public init(
        request: URLRequest?,
        response: HTTPURLResponse?,
        data: Data?,
        metrics: TaskMetrics?,
        result: Result<Output, any Error>
    ) {
        self.request = request
        eagerResponse = response
        lazyResponse = nil
        self.data = data
        self.metrics = metrics
        self.result = result
    }

    init(
        request: URLRequest?,
        lazyResponse: LazyResponse?,
        data: Data?,
        metrics: TaskMetrics?,
        fileURL: URL? = nil,
        result: Result<Output, any Error>
    ) {
        self.request = request
        eagerResponse = nil
        self.lazyResponse = lazyResponse
        self.data = data
        self.metrics = metrics
        self.fileURL = fileURL
        self.result = result
    }

    /// The serialized value on success.
    public var value: Output? { try? result.get() }
    /// The error on failure.
    public var error: (any Error)? {
        if case .failure(let error) = result { return error }
        return nil
    }
}

/// Timings and counters of one task, read from libcurl when the transfer ends.
public struct TaskMetrics: Sendable, Hashable {
    /// Seconds from the start until the name was resolved.
    public var nameLookupDuration: TimeInterval = 0
    /// Seconds from the start until the TCP connection was established.
    public var connectDuration: TimeInterval = 0
    /// Seconds from the start until the TLS handshake completed (0 for plain HTTP or a reused connection).
    public var secureConnectionDuration: TimeInterval = 0
    /// Seconds from the start until the first response byte.
    public var timeToFirstByte: TimeInterval = 0
    /// Seconds the whole transfer took, redirects included.
    public var totalDuration: TimeInterval = 0
    /// Redirects followed.
    public var redirectCount: Int = 0
    /// `HTTP/1.1`, `HTTP/2`.
    public var httpVersion: String? = nil
    /// The peer's IP address.
    public var remoteAddress: String? = nil
    /// The peer's port.
    public var remotePort: Int? = nil
    /// Whether the last hop reused a pooled connection.
    public var reusedConnection: Bool = false
    /// Request body bytes sent.
    public var countOfRequestBodyBytesSent: Int64 = 0
    /// Response body bytes received, after decoding.
    public var countOfResponseBodyBytesReceived: Int64 = 0
    /// Where the response came from: the network, or the session's `URLCache`
    /// (``SessionConfiguration/urlCache``).
    public var resourceFetchType: ResourceFetchType = .networkLoad

    /// Where a response came from (URLSessionTaskTransactionMetrics' `resourceFetchType`, with
    /// revalidation told apart).
    public enum ResourceFetchType: Sendable, Hashable {
        /// From the network.
        case networkLoad
        /// From the cache: the stored response was fresh (or the cache policy asked for it),
        /// and nothing was sent.
        case localCache
        /// From the cache after the server confirmed it: the request carried the stored
        /// response's validators, the server answered `304 Not Modified`, and the caller
        /// received the stored `200` and body.
        case revalidated
    }

    /// Creates empty metrics.
    public init() {}
}

/// What to do with a response whose headers arrived, answered by the
/// `dataTaskDidReceiveResponse` hook (AFNetworking's `NSURLSessionResponseDisposition`).
public struct ResponseDisposition: Sendable, Hashable {
    let rawValue: Int
    /// Go on receiving the body.
    public static let allow = ResponseDisposition(rawValue: 0)
    /// Stop now; the task completes with `URLError.cancelled`.
    public static let cancel = ResponseDisposition(rawValue: 1)
    /// Go on receiving the body into a temporary file, through a new download task that takes
    /// over the data task's completion handler and progress handlers
    /// (`NSURLSessionResponseBecomeDownload`). The
    /// ``SessionManager/setDataTaskDidBecomeDownloadTask(_:)`` hook receives both tasks; the
    /// data task leaves the manager without completing. The download then finishes as a
    /// download task does: the manager's ``SessionManager/responseSerializer`` judges the
    /// response and the ``SessionManager/setDownloadTaskDidFinishDownloading(_:)`` hook picks the
    /// destination; the completion handler's ``DataResponse/fileURL`` is where the file ended
    /// up. Honoured for data tasks (not for `bytes(for:)`, downloads, or the parts of a
    /// `multipart/x-mixed-replace` body, which fail with `GannetError(.invalidRequest)`).
    public static let becomeDownload = ResponseDisposition(rawValue: 2)
    /// Go on receiving the body through a ``SessionStreamTask``, read in pieces and
    /// backpressured (`NSURLSessionResponseBecomeStream`; Linux has no `URLSessionStreamTask`,
    /// this is its read side). The ``SessionManager/setDataTaskDidBecomeStreamTask(_:)`` hook
    /// receives the data task and the stream task; the data task leaves the manager without
    /// completing, and its completion handler runs when the stream's body ends (with no data).
    /// Honoured where ``becomeDownload`` is.
    public static let becomeStream = ResponseDisposition(rawValue: 3)
}
