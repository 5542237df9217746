/// Why an XML response serializer rejected a response: the status or content type was not
/// acceptable, the body was missing, or it was not XML Gannet accepts.
///
/// Keeps the response and the body, as AFNetworking's failing-response and failing-data keys
/// did; the message quotes at most the first few hundred bytes of the body and is never longer
/// than 1 KiB.
///
/// ```swift
/// if let error = error as? XMLResponseSerializationError, error.code == .unacceptableContentType {
///     print(error.response?.value(forHTTPHeaderField: "Content-Type") ?? "-")
/// }
/// ```
public struct XMLResponseSerializationError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short identifier, stable across releases.
        public let name: String
        init(_ name: String) { self.name = name }
        /// The identifier.
        public var description: String { name }

        /// The status code is not in `acceptableStatusCodes`.
        public static let unacceptableStatusCode = Code("unacceptableStatusCode")
        /// The `Content-Type` is not one of `acceptableContentTypes`.
        public static let unacceptableContentType = Code("unacceptableContentType")
        /// The body is empty, and neither the status nor the method allows that.
        public static let inputDataNilOrZeroLength = Code("inputDataNilOrZeroLength")
        /// The body is not XML the parser accepts; ``XMLResponseSerializationError/underlyingError``
        /// is the ``XMLError`` with its line and column.
        public static let xmlParsingFailed = Code("xmlParsingFailed")
    }

    /// The most bytes a message may have.
    public static let maximumMessageBytes = 1024

    /// What kind of failure this is.
    public let code: Code
    /// A one-line reason, with a short excerpt of the body where it helps; at most 1 KiB.
    public let message: String
    /// The response that was rejected.
    public let response: HTTPURLResponse?
    /// The body that was rejected, whole.
    public let data: Data?
    /// The cause: an ``XMLError``, or the content-type failure behind a status failure.
    public let underlyingError: (any Error)?

    /// Creates an error; serializers create these, tests may too.
    public init(_ code: Code, _ message: String, response: HTTPURLResponse?, data: Data?, underlyingError: (any Error)? = nil) {
        self.code = code
        self.message = BodyExcerpt.clip(message, toBytes: Self.maximumMessageBytes)
        self.response = response
        self.data = data
        self.underlyingError = underlyingError
    }

    /// The message, followed by the response's URL when there is one.
    public var description: String {
        guard let url = response?.url else { return message }
        return "\(message) (\(url.absoluteString))"
    }
}

extension XMLResponseSerializationError: LocalizedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}
