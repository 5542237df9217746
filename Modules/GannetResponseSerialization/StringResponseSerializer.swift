/// The body as a `String`, decoded with the charset the response declares.
///
/// The encoding is, in order: ``encoding`` when set; the `charset` parameter of `Content-Type`
/// (IANA names and aliases: `utf-8`, `iso-8859-1`, `windows-1252`, `shift_jis`, …); UTF-8 for
/// JSON types, which RFC 8259 §8.1 fixes; otherwise ``fallbackEncoding``, ISO-8859-1 by default
/// as in Alamofire (HTTP/1.1's historical default for `text/*`, and it decodes any byte).
///
/// Bytes that are invalid in the chosen encoding, or a charset Gannet cannot decode, are a
/// ``ResponseSerializationError/Code/stringDecodingFailed`` error, never replacement characters.
/// An empty body gives `""` for ``emptyResponseCodes`` and ``emptyRequestMethods``, and an
/// error otherwise (see ``ResponseBodySerializing``).
///
/// ```swift
/// let page = try await manager.value(for: request, serializer: .string)
/// let legacy = try await manager.value(for: request, serializer: .string(encoding: .windowsCP1252))
/// ```
public struct StringResponseSerializer: ResponseBodySerializing {
    /// The encoding to use whatever the response declares; `nil` (the default) reads the
    /// response's charset.
    public var encoding: String.Encoding?
    /// The encoding when neither ``encoding`` nor the response names one; ISO-8859-1 by default.
    public var fallbackEncoding: String.Encoding
    /// Status codes that count as success; 200–299 by default.
    public var acceptableStatusCodes: IndexSet
    /// Media types the body may have; `nil` (the default) accepts any.
    public var acceptableContentTypes: Set<MediaType>?
    /// Transforms the body before it is decoded.
    public var dataPreprocessor: any DataPreprocessor
    /// Status codes whose response may have an empty body; 204, 205, 304 by default.
    public var emptyResponseCodes: Set<Int>
    /// Request methods whose response may have an empty body; `HEAD` by default.
    public var emptyRequestMethods: Set<String>

    /// Creates a serializer.
    public init(
        encoding: String.Encoding? = nil,
        fallbackEncoding: String.Encoding = .isoLatin1,
        acceptableStatusCodes: IndexSet = Self.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<MediaType>? = nil,
        dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor(),
        emptyResponseCodes: Set<Int> = Self.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<String> = Self.defaultEmptyRequestMethods
    ) {
        self.encoding = encoding
        self.fallbackEncoding = fallbackEncoding
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
        self.dataPreprocessor = dataPreprocessor
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// The decoded body, or `""` where an empty body is allowed.
    public func serialize(_ input: ResponseInput) throws -> String {
        guard let body = try validatedBody(input) else {
            return ""
        }
        let chosen = try resolvedEncoding(for: input.response, data: input.data)
        guard let string = String(data: body, encoding: chosen) else {
            throw ResponseSerializationError(
                .stringDecodingFailed,
                BodyExcerpt.message("Text could not be decoded as \(chosen)", body: input.data),
                response: input.response,
                data: input.data
            )
        }
        return string
    }

    /// The encoding this serializer would use for `response`.
    ///
    /// - Throws: ``ResponseSerializationError/Code/stringDecodingFailed`` for a charset that
    ///   Gannet cannot decode.
    public func resolvedEncoding(for response: HTTPURLResponse?) throws -> String.Encoding {
        try resolvedEncoding(for: response, data: nil)
    }

    private func resolvedEncoding(for response: HTTPURLResponse?, data: Data?) throws -> String.Encoding {
        if let encoding { return encoding }
        let mediaType = response.flatMap(MediaType.init(contentTypeOf:))
        if let charset = mediaType?.charset {
            guard let declared = String.Encoding(ianaCharsetName: charset) else {
                let shown = BodyExcerpt.clip(BodyExcerpt.singleLine(charset), toBytes: 100)
                throw ResponseSerializationError(
                    .stringDecodingFailed,
                    BodyExcerpt.message("Text could not be decoded: unsupported charset \"\(shown)\"", body: data),
                    response: response,
                    data: data
                )
            }
            return declared
        }
        if let mediaType, MediaType.json.matches(mediaType) || MediaType.anyJSONSuffix.matches(mediaType) {
            return .utf8
        }
        return fallbackEncoding
    }
}
