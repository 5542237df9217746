/// AFJSONRequestSerializer: parameters as a JSON body (`Content-Type: application/json` unless
/// the request has one), written with `JSONSerialization`. Methods in
/// ``RequestSerializerConfiguration/methodsEncodingParametersInURI`` (`GET`, `HEAD`, `DELETE`)
/// still take their parameters in the query string, exactly as ``HTTPRequestSerializer`` does.
///
/// ```swift
/// let serializer = JSONRequestSerializer(writingOptions: [.sortedKeys])
/// let request = try serializer.request(method: "POST", urlString: "http://127.0.0.1:8080/post",
///                                      parameters: ["name": "Gannet", "tags": ["swift"], "draft": false])
/// // {"draft":false,"name":"Gannet","tags":["swift"]}
/// ```
///
/// `Parameters.jsonArray([…])` writes a top-level JSON array instead of an object.
///
/// Values must be what `JSONSerialization` writes: `String`, numbers (`Int`, `Double`,
/// `Decimal`, `NSNumber`), `Bool`, `NSNull` or `nil`, and arrays and `[String: …]`
/// dictionaries of them. Anything else (`Date`, `Data`, a `Double.nan`, a custom type) throws
/// ``RequestSerializationError/Code/jsonEncodingFailed`` instead of crashing; use
/// ``EncodableRequestSerializer`` to write such values with a `JSONEncoder`.
public struct JSONRequestSerializer: ConfigurableRequestSerializer {
    /// The options and default headers.
    public var configuration: RequestSerializerConfiguration
    /// `JSONSerialization` writing options, such as `.sortedKeys` or `.prettyPrinted`.
    public var writingOptions: JSONSerialization.WritingOptions

    /// Creates a serializer.
    public init(
        writingOptions: JSONSerialization.WritingOptions = [],
        configuration: RequestSerializerConfiguration = RequestSerializerConfiguration()
    ) {
        self.writingOptions = writingOptions
        self.configuration = configuration
    }

    /// Returns `request` with the default headers and options applied and `parameters` as a
    /// JSON body (or in the query string for `GET`, `HEAD`, `DELETE`), after
    /// `RequestValidation.validate(_:)`. `nil` parameters leave the body alone.
    public func request(byEncoding parameters: Parameters?, into request: consuming URLRequest) throws -> URLRequest {
        if encodesParametersInURI(request) {
            return try HTTPRequestSerializer(configuration: configuration).request(
                byEncoding: parameters,
                into: consume request
            )
        }
        var request = try prepare(consume request)
        if let parameters {
            // A top-level array (Parameters.jsonArray) is written as the array itself.
            let object: Any = parameters.topLevelArray.map { $0 as [Any] } ?? parameters as [String: Any]
            // JSONSerialization traps (on Darwin, raises) on objects it cannot write: check first.
            guard JSONSerialization.isValidJSONObject(object) else {
                throw RequestSerializationError(
                    .jsonEncodingFailed,
                    "The parameters hold a value JSONSerialization cannot write (\(JSONProblem.describe(object)))",
                    failingRequest: request
                )
            }
            do {
                request.httpBody = try JSONSerialization.data(withJSONObject: object, options: writingOptions)
            } catch {
                throw RequestSerializationError(
                    .jsonEncodingFailed,
                    "JSONSerialization failed",
                    failingRequest: request,
                    underlyingError: error
                )
            }
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        }
        try RequestValidation.validate(request)
        return request
    }
}
