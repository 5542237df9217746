/// A response that failed validation or could not be turned into the requested value.
///
/// It keeps what AFNetworking kept in the error's `userInfo`: the response
/// (`AFNetworkingOperationFailingURLResponseErrorKey`), the whole body
/// (`AFNetworkingOperationFailingURLResponseDataErrorKey`) so an app can read a server's error
/// document, and the error that caused it. Validation chains errors as AFNetworking does: when
/// both the content type and the status are unacceptable, the status error is thrown and the
/// content-type error is its ``underlyingError``.
///
/// ```swift
/// do {
///     let user = try await manager.value(for: request, serializer: .decodable(of: User.self))
/// } catch let error as ResponseSerializationError where error.code == .unacceptableStatusCode {
///     print(error.statusCode, String(decoding: error.data ?? Data(), as: UTF8.self))
/// }
/// ```
///
/// ``message`` never exceeds 1 KB, so it never echoes more than 1 KB of a hostile body, and an
/// ``underlyingError`` whose description would be longer (Foundation's JSON errors repeat a
/// whole oversized number) is replaced by a shortened copy of the same domain and code.
public struct ResponseSerializationError: Error, Sendable {
    /// What kind of failure this is. Codes are static members, so adding one is not a
    /// breaking change.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case unacceptableStatusCode, unacceptableContentType, inputDataNilOrZeroLength
            case jsonDecodingFailed, stringDecodingFailed, decodingFailed
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A short identifier, stable across releases.
        public var description: String { base.rawValue }

        /// The status code is not in the serializer's `acceptableStatusCodes`
        /// (AFNetworking: `NSURLErrorBadServerResponse`).
        // swift-format-ignore: DontRepeatTypeInStaticProperties
        // "status code" is the subject, not a repetition of `Code`; renaming would break users.
        public static let unacceptableStatusCode = Code(.unacceptableStatusCode)
        /// The body's `Content-Type` is not in the serializer's `acceptableContentTypes`
        /// (AFNetworking: `NSURLErrorCannotDecodeContentData`).
        public static let unacceptableContentType = Code(.unacceptableContentType)
        /// The body is empty, but the serializer needs one (not a 204/205/304 or `HEAD`, or the
        /// requested type is not an ``EmptyResponse``).
        public static let inputDataNilOrZeroLength = Code(.inputDataNilOrZeroLength)
        /// The body is not valid JSON (``underlyingError`` holds `JSONSerialization`'s reason).
        public static let jsonDecodingFailed = Code(.jsonDecodingFailed)
        /// The body is not valid text in its declared (or fallback) encoding, or names a
        /// charset Gannet does not know.
        public static let stringDecodingFailed = Code(.stringDecodingFailed)
        /// A `Decodable` (or custom) decoder rejected the body (``underlyingError`` holds its
        /// error, such as a `DecodingError`).
        public static let decodingFailed = Code(.decodingFailed)
    }

    /// The most bytes ``message`` may hold, and so the most of a body it can ever quote.
    public static let maximumMessageBytes = 1024

    /// What kind of failure this is.
    public let code: Code
    /// One line for people: AFNetworking's wording for validation (`Request failed: not found
    /// (404)`, `Request failed: unacceptable content-type: text/html`); for decoding failures,
    /// the reason and an excerpt of the body. At most ``maximumMessageBytes`` bytes.
    public let message: String
    /// The response that failed.
    public let response: HTTPURLResponse?
    /// The whole body as received, for apps that read a server's error document. Never printed
    /// whole: ``description`` and ``message`` quote at most 1 KB of it.
    public let data: Data?
    /// The cause: the content-type error under a status error, or the decoder's error.
    public let underlyingError: (any Error)?

    /// Creates an error; custom serializers create these too.
    ///
    /// `message` is cut to ``maximumMessageBytes`` bytes. To quote the body in a decoding
    /// failure, use ``decodingFailed(_:response:data:underlyingError:)``, which fits an
    /// excerpt within that limit.
    public init(
        _ code: Code,
        _ message: String,
        response: HTTPURLResponse?,
        data: Data?,
        underlyingError: (any Error)? = nil
    ) {
        self.code = code
        self.message = BodyExcerpt.clip(message, toBytes: Self.maximumMessageBytes)
        self.response = response
        self.data = data
        self.underlyingError = underlyingError.map(BoundedError.bounding)
    }

    /// A ``Code/decodingFailed`` error whose message is `reason` followed by the body's size and
    /// its first bytes, within ``maximumMessageBytes``.
    ///
    /// ```swift
    /// throw ResponseSerializationError.decodingFailed("MessagePack: unknown type byte 0xc1",
    ///                                                 response: response, data: data)
    /// ```
    public static func decodingFailed(
        _ reason: String,
        response: HTTPURLResponse?,
        data: Data?,
        underlyingError: (any Error)? = nil
    ) -> ResponseSerializationError {
        ResponseSerializationError(
            .decodingFailed,
            BodyExcerpt.message(reason, body: data),
            response: response,
            data: data,
            underlyingError: underlyingError
        )
    }

    /// The response's status code.
    public var statusCode: Int? { response?.statusCode }

    /// The response's URL without any `user:password@`.
    public var failingURL: URL? { response?.url.map(URL.removingCredentials) }
}

extension ResponseSerializationError: DescriptiveError {
    /// ``message`` followed by the failing URL.
    public var description: String {
        guard let failingURL else { return message }
        return "\(message) (\(failingURL.absoluteString))"
    }
}
