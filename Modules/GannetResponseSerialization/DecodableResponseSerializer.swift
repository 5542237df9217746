/// A `Decodable` value from the body, with any ``DataDecoder``.
///
/// ```swift
/// let user = try await manager.value(for: request, serializer: .decodable(of: User.self))
/// let plist = DecodableResponseSerializer<Settings>(decoder: PropertyListDecoder())
/// ```
///
/// An empty body for ``emptyResponseCodes`` (204, 205, 304) or ``emptyRequestMethods``
/// (`HEAD`) gives ``EmptyResponse/emptyValue()`` when `T` is an ``EmptyResponse`` such as
/// ``Empty``; for any other `T`, and for any other empty body, the result is a
/// ``ResponseSerializationError/Code/inputDataNilOrZeroLength`` error (see
/// ``ResponseBodySerializing``). A decoder's error becomes
/// ``ResponseSerializationError/Code/decodingFailed`` with the decoder's error underneath and
/// at most 1 KB of the body in the message.
///
/// With a `JSONDecoder` (the default) the acceptable content types are the JSON ones of
/// ``JSONResponseSerializer/defaultAcceptableContentTypes``; with any other decoder, any type.
/// Note that `JSONDecoder` on Linux keeps the **first** of duplicate keys, where
/// `JSONSerialization` keeps the last.
public struct DecodableResponseSerializer<T: Decodable & Sendable>: ResponseBodySerializing {
    /// The decoder; `JSONDecoder()` by default.
    public var decoder: any DataDecoder
    /// Status codes that count as success; 200–299 by default.
    public var acceptableStatusCodes: IndexSet
    /// Media types the body may have.
    public var acceptableContentTypes: Set<MediaType>?
    /// Transforms the body before it is decoded.
    public var dataPreprocessor: any DataPreprocessor
    /// Status codes whose response may have an empty body; 204, 205, 304 by default.
    public var emptyResponseCodes: Set<Int>
    /// Request methods whose response may have an empty body; `HEAD` by default.
    public var emptyRequestMethods: Set<String>

    /// Creates a serializer. With a `JSONDecoder` it accepts the JSON media types, with any
    /// other decoder any type; set ``acceptableContentTypes`` afterwards to change that.
    public init(
        of type: T.Type = T.self,
        decoder: any DataDecoder = JSONDecoder(),
        acceptableStatusCodes: IndexSet = Self.defaultAcceptableStatusCodes,
        dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor(),
        emptyResponseCodes: Set<Int> = Self.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<String> = Self.defaultEmptyRequestMethods
    ) {
        self.decoder = decoder
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes =
            decoder is JSONDecoder ? JSONResponseSerializer.defaultAcceptableContentTypes : nil
        self.dataPreprocessor = dataPreprocessor
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// The decoded value, or `T.emptyValue()` for an allowed empty body when `T` is an
    /// ``EmptyResponse``.
    public func serialize(_ input: ResponseInput) throws -> T {
        guard let body = try validatedBody(input) else {
            if let emptyType = T.self as? any EmptyResponse.Type, let empty = emptyType.emptyValue() as? T {
                return empty
            }
            throw ResponseSerializationError(
                .inputDataNilOrZeroLength,
                "Response has an empty body, which cannot be decoded as \(T.self); use Empty for responses without a body",
                response: input.response,
                data: input.data
            )
        }
        do {
            let value = try decoder.decode(T.self, from: body)
            // JSONDecoder on Linux accepts a trailing comma, which RFC 8259 and Apple's
            // JSONDecoder (without JSON5) refuse (JSONTrailingComma).
            if let json = decoder as? JSONDecoder, !json.allowsJSON5, let offset = JSONTrailingComma.offset(in: body) {
                throw JSONTrailingComma.error(atOffset: offset)
            }
            return value
        } catch {
            throw ResponseSerializationError(
                .decodingFailed,
                BodyExcerpt.message(
                    "\(T.self) could not be decoded: \(BoundedError.reason(of: error))",
                    body: input.data
                ),
                response: input.response,
                data: input.data,
                underlyingError: error
            )
        }
    }
}
