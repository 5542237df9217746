/// A request serializer refused to build a request, and why.
///
/// Every serializer in this module throws one of two errors:
///
/// - Validation failures (a header, URL or method that cannot be sent as written) are a
///   `GannetError` with code `.invalidHeader` or `.invalidRequest`, the same codes the engine
///   uses, so one `if error.code == .invalidHeader` covers both places. Its `underlyingError` is
///   a `RequestSerializationError` that keeps the failing request
///   (``GannetCore/GannetError/failingRequest`` reads it).
/// - Everything else (a value that cannot be encoded, a file that cannot be read, a custom query
///   closure that threw) is a `RequestSerializationError` directly.
///
/// Codes are static members of an open struct, so adding one is not a breaking change:
///
/// ```swift
/// do {
///     let request = try serializer.request(method: "POST", urlString: url, parameters: parameters)
/// } catch let error as RequestSerializationError where error.code == .jsonEncodingFailed {
///     print(error.message, error.failingRequest?.url as Any)
/// }
/// ```
public struct RequestSerializationError: Error, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: NamedErrorCode {
        /// A short identifier, stable across releases.
        public let name: String
        init(_ name: String) { self.name = name }

        /// A header name or value that cannot be sent (CR, LF, NUL, a non-token name).
        /// Thrown wrapped in `GannetError(.invalidHeader)`.
        public static let invalidHeader = Code("invalidHeader")
        /// A URL or method that cannot be sent (control characters, spaces, no host, `GET` with a
        /// multipart body). Thrown wrapped in `GannetError(.invalidRequest)`.
        public static let invalidRequest = Code("invalidRequest")
        /// A parameter value of a type the query-string encoding does not know, or a string that
        /// the configured `String.Encoding` cannot represent.
        public static let parameterEncodingFailed = Code("parameterEncodingFailed")
        /// The custom query-string closure threw; ``RequestSerializationError/underlyingError``
        /// holds what it threw.
        public static let queryStringSerializationFailed = Code("queryStringSerializationFailed")
        /// The parameters or the `Encodable` value cannot be written as JSON.
        public static let jsonEncodingFailed = Code("jsonEncodingFailed")
        /// A multipart file part names something that is not a readable regular file.
        public static let fileNotReadable = Code("fileNotReadable")
        /// A multipart name or file name that cannot be sent: it contains the boundary or NUL.
        public static let invalidMultipartName = Code("invalidMultipartName")
        /// Reading a multipart body failed: a file or stream ended early or reported an error.
        public static let bodyStreamFailed = Code("bodyStreamFailed")
        /// Writing a multipart body to a file failed, or the request has no body stream.
        public static let bodyWriteFailed = Code("bodyWriteFailed")
    }

    /// What kind of failure this is.
    public let code: Code
    /// A one-line, human-readable reason. Never contains header values or parameter values,
    /// which may hold credentials.
    public let message: String
    /// The request as it was when serialization failed (AFNetworking's
    /// `AFNetworkingOperationFailingURLRequestErrorKey`), when there was one.
    public let failingRequest: URLRequest?
    /// The error that caused this one: the custom query closure's error, a `JSONEncoder`
    /// error, a file system error.
    public let underlyingError: (any Error)?

    /// Creates an error; custom serializers may throw these too.
    public init(_ code: Code, _ message: String, failingRequest: URLRequest? = nil, underlyingError: (any Error)? = nil)
    {
        self.code = code
        self.message = message
        self.failingRequest = failingRequest
        self.underlyingError = underlyingError
    }

    public var description: String {
        var text = message
        if let underlyingError { text += ": \(underlyingError)" }
        return text
    }

    /// The same error with `request` recorded as the failing request, unless one is recorded.
    func withFailingRequest(_ request: URLRequest) -> RequestSerializationError {
        guard failingRequest == nil else { return self }
        return RequestSerializationError(code, message, failingRequest: request, underlyingError: underlyingError)
    }
}

extension RequestSerializationError: DescriptiveError {}
