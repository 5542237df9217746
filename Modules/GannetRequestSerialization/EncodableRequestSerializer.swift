/// A JSON body written by a `JSONEncoder` of the caller's choosing: for whole `Encodable`
/// values (``request(encoding:into:)``), and for `Parameters` whose values are
/// `Encodable`, so dates, data and keys follow the encoder's strategies.
///
/// ```swift
/// struct NewUser: Encodable, Sendable { var name: String; var joined: Date }
/// let encoder = JSONEncoder()
/// encoder.dateEncodingStrategy = .secondsSince1970
/// let serializer = EncodableRequestSerializer(encoder: encoder)
/// let request = try serializer.request(method: "POST", urlString: "http://127.0.0.1:8080/post",
///                                      body: NewUser(name: "Gannet", joined: .now))
/// ```
///
/// For methods in ``RequestSerializerConfiguration/methodsEncodingParametersInURI`` (`GET`,
/// `HEAD`, `DELETE`) nothing goes in a body: `Parameters` take ``HTTPRequestSerializer``'s query
/// encoding, and an `Encodable` value is encoded to a JSON object by the encoder and then
/// written as a query string (its top level must be an object).
///
/// `JSONEncoder` is a class: the serializer shares the instance it was given, so configure the
/// encoder before handing it over and do not change it while requests are built.
public struct EncodableRequestSerializer: ConfigurableRequestSerializer {
    /// The options and default headers.
    public var configuration: RequestSerializerConfiguration
    /// The encoder that writes bodies.
    public var encoder: JSONEncoder

    /// Creates a serializer that writes with `encoder`.
    public init(
        encoder: JSONEncoder = JSONEncoder(),
        configuration: RequestSerializerConfiguration = RequestSerializerConfiguration()
    ) {
        self.encoder = encoder
        self.configuration = configuration
    }

    /// Returns `request` with `parameters` as a JSON body written by ``encoder`` (or in the
    /// query string for `GET`, `HEAD`, `DELETE`). A value that is not `Encodable` (nor a
    /// container, `NSNumber`, `NSNull` or `nil`) throws ``RequestSerializationError/Code/jsonEncodingFailed``.
    public func request(byEncoding parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
        if encodesParametersInURI(request) {
            return try HTTPRequestSerializer(configuration: configuration).request(
                byEncoding: parameters,
                into: request
            )
        }
        guard let parameters else {
            let request = try prepare(request)
            try RequestValidation.validate(request)
            return request
        }
        return try encodeBody(EncodableParameters(value: parameters as [String: Any]), into: request)
    }

    /// Returns `request` with `value` as its JSON body, or, for `GET`, `HEAD` and `DELETE`, in
    /// its query string.
    public func request<Value: Encodable>(encoding value: Value, into request: URLRequest) throws -> URLRequest {
        if encodesParametersInURI(request) {
            let prepared = try prepare(request)
            let parameters = try jsonObjectParameters(of: value, for: prepared)
            return try HTTPRequestSerializer(configuration: configuration).request(
                byEncoding: parameters,
                into: prepared
            )
        }
        return try encodeBody(value, into: request)
    }

    /// Builds a request for `method` and `urlString` with `value` encoded into it.
    public func request<Value: Encodable>(method: String, urlString: String, body value: Value) throws -> URLRequest {
        try request(encoding: value, into: makeRequest(method: method, urlString: urlString))
    }

    private func encodeBody<Value: Encodable>(_ value: Value, into request: URLRequest) throws -> URLRequest {
        var request = try prepare(request)
        do {
            request.httpBody = try encoder.encode(value)
        } catch {
            throw RequestSerializationError(
                .jsonEncodingFailed,
                "JSONEncoder could not encode the body",
                failingRequest: request,
                underlyingError: error
            )
        }
        if request.value(forHTTPHeaderField: "Content-Type") == nil {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        try RequestValidation.validate(request)
        return request
    }

    private func jsonObjectParameters<Value: Encodable>(of value: Value, for request: URLRequest) throws -> Parameters {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: encoder.encode(value), options: [.fragmentsAllowed])
        } catch {
            throw RequestSerializationError(
                .jsonEncodingFailed,
                "JSONEncoder could not encode the query value",
                failingRequest: request,
                underlyingError: error
            )
        }
        guard let dictionary = object as? [String: Any] else {
            throw RequestSerializationError(
                .jsonEncodingFailed,
                "A query value must encode to a JSON object, not \(type(of: object))",
                failingRequest: request
            )
        }
        return dictionary.mapValues { SendableJSONValue.make($0) }
    }
}
