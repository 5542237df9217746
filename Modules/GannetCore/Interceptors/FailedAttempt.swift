/// What a ``RequestRetrier`` is told about an attempt that failed: the request as sent, the
/// response if one arrived, the transport error if any, and how many retries came before.
public struct FailedAttempt: @unchecked Sendable {
    // @unchecked: URLRequest is a value, the error and the response were created once when
    // the attempt ended and are never mutated; the lazy response is a Sendable class.

    /// The request of the attempt's last hop, as adapted and sent.
    public let request: URLRequest?
    /// The transport error, `nil` when a response arrived (then ``statusCode`` is 400 or more).
    public let error: (any Error)?
    /// The response body, for tasks that keep it in memory.
    public let data: Data?
    /// Retries made before this attempt: 0 when the first attempt failed.
    public let retryCount: Int
    private let lazyResponse: LazyResponse?

    init(outcome: TransferOutcome, retryCount: Int) {
        request = outcome.request
        error = outcome.error
        data = outcome.data
        lazyResponse = outcome.lazyResponse
        self.retryCount = retryCount
    }

    /// Creates an attempt, for testing a retrier without a server.
    public init(
        request: URLRequest?,
        response: HTTPURLResponse?,
        data: Data? = nil,
        error: (any Error)?,
        retryCount: Int
    ) {
        self.request = request
        self.error = error
        self.data = data
        self.retryCount = retryCount
        lazyResponse = response.map { LazyResponse(prebuilt: $0) }
    }

    /// The response, if one arrived. Built on first access.
    public var response: HTTPURLResponse? { lazyResponse?.value }

    /// The response's status code, read from the parsed head.
    public var statusCode: Int? { lazyResponse?.statusCode }

    /// A response header by case-insensitive name, read from the parsed head.
    public func headerValue(_ name: String) -> String? {
        lazyResponse?.headerValue(name)
    }

    /// The `URLError` code of the transport error, if it is one.
    public var urlErrorCode: URLError.Code? { (error as? URLError)?.code }
}
