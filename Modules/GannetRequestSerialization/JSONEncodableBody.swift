/// A serializer bound to one `Encodable` value: the value becomes the JSON body, and the
/// `Parameters` a session manager passes, if any, go into the query string. For
/// `GET`, `HEAD` and `DELETE` the value is written into the query string too (see
/// ``EncodableRequestSerializer``).
///
/// ```swift
/// let body = JSONEncodableBody(NewUser(name: "Gannet"), encoder: encoder)
/// let request = try body.request(byEncoding: ["dryRun": true], into: URLRequest(url: url, method: "POST"))
/// // POST /users?dryRun=1 with {"name":"Gannet"}
/// ```
public struct JSONEncodableBody<Value: Encodable & Sendable>: ConfigurableRequestSerializer {
    /// The value written as the body.
    public var value: Value
    /// The serializer that writes it, with its encoder and configuration.
    public var serializer: EncodableRequestSerializer

    /// The options and default headers (``serializer``'s).
    public var configuration: RequestSerializerConfiguration {
        get { serializer.configuration }
        set { serializer.configuration = newValue }
    }

    /// Creates a body of `value` written by `encoder`.
    public init(
        _ value: Value,
        encoder: JSONEncoder = JSONEncoder(),
        configuration: RequestSerializerConfiguration = RequestSerializerConfiguration()
    ) {
        self.value = value
        self.serializer = EncodableRequestSerializer(encoder: encoder, configuration: configuration)
    }

    /// Returns `request` with `parameters` in the query string and ``value`` as the body.
    public func request(byEncoding parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
        var request = try prepare(request)
        if let parameters {
            request = try configuration.appendingQuery(configuration.query(for: parameters, in: request), to: request)
        }
        return try serializer.request(encoding: value, into: request)
    }
}
