/// Everything a response serializer reads of one finished transfer: the request sent last, the
/// response, the body (in memory, or the file a download wrote with its first 64 KiB in
/// ``data``), and the transport error, if any.
///
/// The status code and header fields come from the parsed head, so a serializer that reads
/// only them never builds an `HTTPURLResponse`: Foundation's initializer costs about as much
/// as the rest of a small exchange (docs/performance.md). ``response`` builds it on first use.
///
/// ```swift
/// let input = ResponseInput(request: request, response: response, data: body)
/// let json = try JSONResponseSerializer().serialize(input)
/// ```
public struct ResponseInput {
    /// The last request sent (after redirects), or the original one if nothing was sent.
    public var request: URLRequest?
    /// The body as received. For a download task: the first 64 KiB of ``fileURL``
    /// (docs/core.md, "Downloads").
    public var data: Data?
    /// The file a download task wrote the body to; `nil` for a body kept in memory.
    public var fileURL: URL?
    /// The transport error. A `SessionManager` never runs a serializer over one (a failed
    /// transfer's error reaches the completion as it is); a caller that runs a serializer
    /// itself may pass one, and Gannet's serializers rethrow it.
    public var error: (any Error)?
    /// The response's status and header fields, from the parsed head when there is one.
    let view: ResponseView?

    /// Creates the input of a serializer run by hand (a test, a response that came another way:
    /// URLSession, async-http-client).
    public init(
        request: URLRequest? = nil,
        response: HTTPURLResponse? = nil,
        data: Data? = nil,
        fileURL: URL? = nil,
        error: (any Error)? = nil
    ) {
        self.request = request
        view = response.map(ResponseView.init)
        self.data = data
        self.fileURL = fileURL
        self.error = error
    }

    /// The input of a transfer whose response head was parsed by the engine.
    package init(
        request: URLRequest?,
        lazyResponse: LazyResponse?,
        data: Data?,
        fileURL: URL? = nil,
        error: (any Error)?
    ) {
        self.request = request
        view = lazyResponse.map(ResponseView.init)
        self.data = data
        self.fileURL = fileURL
        self.error = error
    }

    /// The response as Foundation's object, built on first use; `nil` when none arrived.
    public var response: HTTPURLResponse? { view?.response }

    /// The response's status code, read from the parsed head; `nil` when no response arrived.
    public var statusCode: Int? { view?.statusCode }

    /// The media type of the `Content-Type` header, read from the parsed head; `nil` when it is
    /// missing or unparseable.
    package var contentType: MediaType? { view?.contentType }

    /// A header field's value, the name compared case-insensitively; repeated fields are joined
    /// with ", " as `HTTPURLResponse` joins them. Read from the parsed head.
    public func value(forHTTPHeaderField name: String) -> String? {
        view?.value(forHTTPHeaderField: name)
    }
}
