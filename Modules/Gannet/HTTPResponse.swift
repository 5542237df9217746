/// What an async call of ``HTTPSessionManager`` returns on success: the request that went out
/// (after redirects), the response, the body as received, the serialized value and the
/// transfer metrics.
///
/// ```swift
/// let response = try await manager.get("users", parameters: ["page": 2])
/// print(response.statusCode, response.value as Any)
/// let users = try response.decoded(as: [User].self)
/// ```
public struct HTTPResponse<Value: Sendable>: Sendable {
    /// The last request sent (after redirects).
    public let request: URLRequest
    /// The final HTTP response.
    public let response: HTTPURLResponse
    /// The body as received (empty when there was none).
    public let data: Data
    /// What the response serializer produced.
    public let value: Value
    /// Timings and counters of the transfer.
    public let metrics: TaskMetrics?

    /// Creates a response; the manager creates these, tests may too.
    public init(request: URLRequest, response: HTTPURLResponse, data: Data, value: Value, metrics: TaskMetrics?) {
        self.request = request
        self.response = response
        self.data = data
        self.value = value
        self.metrics = metrics
    }

    /// The response's status code.
    public var statusCode: Int { response.statusCode }

    /// A header of the response, its name compared case-insensitively.
    public func value(forHTTPHeaderField field: String) -> String? {
        response.value(forHTTPHeaderField: field)
    }

    /// The body decoded into `type` by `decoder` (JSON by default), without validation.
    ///
    /// - Throws: the decoder's error.
    public func decoded<T: Decodable>(
        as type: T.Type = T.self,
        using decoder: any DataDecoder = JSONDecoder()
    ) throws -> T {
        try decoder.decode(type, from: data)
    }
}

extension HTTPResponse {
    /// The response for a finished ``GannetCore/DataResponse``, or its error.
    init(_ response: DataResponse<Value>, sentRequest: URLRequest) throws {
        let (value, httpResponse) = try response.get()
        self.init(
            request: response.request ?? sentRequest,
            response: httpResponse,
            data: response.data ?? Data(),
            value: value,
            metrics: response.metrics
        )
    }
}
