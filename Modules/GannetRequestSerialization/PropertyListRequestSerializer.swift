/// AFNetworking's `AFPropertyListRequestSerializer`: parameters as a property-list body
/// (`Content-Type: application/x-plist` unless the request has one), written by Foundation's
/// `PropertyListSerialization` in ``format`` (XML by default). Methods in
/// ``RequestSerializerConfiguration/methodsEncodingParametersInURI`` (`GET`, `HEAD`, `DELETE`)
/// still take their parameters in the query string, as ``HTTPRequestSerializer`` does.
///
/// ```swift
/// manager.requestSerializer = PropertyListRequestSerializer()
/// ```
///
/// Values must be property-list values: `String`, numbers, `Bool`, `Date`, `Data`, and arrays
/// and `[String: …]` dictionaries of them. Anything else (`NSNull`, a custom type) throws
/// ``RequestSerializationError/Code/parameterEncodingFailed``.
public struct PropertyListRequestSerializer: ConfigurableRequestSerializer {
    /// The options and default headers.
    public var configuration: RequestSerializerConfiguration
    /// `.xml` (the default, AFNetworking's) or `.binary`. (`.openStep` cannot be written.)
    public var format: PropertyListSerialization.PropertyListFormat

    /// Creates a serializer.
    public init(
        format: PropertyListSerialization.PropertyListFormat = .xml,
        configuration: RequestSerializerConfiguration = RequestSerializerConfiguration()
    ) {
        self.format = format
        self.configuration = configuration
    }

    /// Returns `request` with the default headers and options applied and `parameters` as a
    /// property-list body (or in the query string for `GET`, `HEAD`, `DELETE`), after
    /// `RequestValidation.validate(_:)`. `nil` parameters leave the body alone.
    public func request(byEncoding parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
        if encodesParametersInURI(request) {
            return try HTTPRequestSerializer(configuration: configuration).request(
                byEncoding: parameters,
                into: request
            )
        }
        var request = try prepare(request)
        if let parameters {
            let object: Any = parameters.topLevelArray.map { $0 as [Any] } ?? parameters as [String: Any]
            do {
                request.httpBody = try PropertyListSerialization.data(
                    fromPropertyList: object,
                    format: format,
                    options: 0
                )
            } catch {
                throw RequestSerializationError(
                    .parameterEncodingFailed,
                    "The parameters are not a property list",
                    failingRequest: request,
                    underlyingError: error
                )
            }
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/x-plist", forHTTPHeaderField: "Content-Type")
            }
        }
        try RequestValidation.validate(request)
        return request
    }
}
