/// A JSON object, array or (with `.fragmentsAllowed`) fragment from the body: AFNetworking's
/// `AFJSONResponseSerializer`.
///
/// ## The value
/// The result is what `JSONSerialization` would give, as sendable values. The body is parsed
/// directly from its UTF-8 bytes into that tree; `JSONSerialization` parses what the direct
/// parser leaves to it, and its `Any` is then rebuilt once from sendable values: every malformed
/// body, so that the errors are `JSONSerialization`'s own, and rare forms such as UTF-16 bodies.
/// A trailing comma (`[1,]`, `{"a":1,}`), which Foundation on Linux accepts, is refused with
/// ``ResponseSerializationError/Code/jsonDecodingFailed`` as RFC 8259 and Apple's Foundation
/// refuse it, so that a body a Mac client rejects does not parse here. Either way the values are immutable and cast the way AFNetworking's
/// Foundation objects did:
///
/// | JSON | Swift value | AFNetworking-style access |
/// |---|---|---|
/// | object | `[String: any Sendable]` | `value as? [String: Any]` |
/// | array | `[any Sendable]` | `value as? [Any]` |
/// | string | `String` | `as? String` |
/// | number, `true`, `false` | `NSNumber` (`NSDecimalNumber` beyond 64 bits) | `as? Int`, `as? Double`, `as? Bool`, `as? Decimal` |
/// | `null` | `NSNull` (dropped with ``removesKeysWithNullValues``) | `is NSNull` |
///
/// Numbers stay `NSNumber` so that `as? Double` works on `10` and `as? Int` on `10.0`, as they
/// did in Objective-C. For typed access use ``DecodableResponseSerializer``.
///
/// ## Empty bodies
/// An empty body, or one single space (what Rails sends for `head :ok`), gives `nil` and no
/// error, as in AFNetworking.
///
/// ## Limits
/// Foundation on Linux refuses nesting deeper than 512 arrays or objects (a 100,000-deep
/// document fails fast with ``ResponseSerializationError/Code/jsonDecodingFailed``), refuses
/// numbers outside `Double`'s range (`1e400`), and keeps the **last** of duplicate keys.
/// Integers up to 2^64−1 are exact `NSNumber`s; larger ones become `NSDecimalNumber`.
public struct JSONResponseSerializer: ResponseValidating {
    /// `(any Sendable)?`: `nil` for an empty body or a single space.
    public typealias Output = (any Sendable)?

    /// `application/json`, `text/json`, `text/javascript` (AFNetworking's three), and
    /// `application/*+json` for JSON-based formats such as `application/problem+json`.
    public static let defaultAcceptableContentTypes: Set<MediaType> = [
        .json, "text/json", "text/javascript", .anyJSONSuffix,
    ]

    /// Status codes that count as success; 200–299 by default.
    public var acceptableStatusCodes: IndexSet
    /// Media types the body may have; ``defaultAcceptableContentTypes`` by default.
    public var acceptableContentTypes: Set<MediaType>?
    /// Options for `JSONSerialization`. `.fragmentsAllowed` accepts a top-level string,
    /// number or `null`; `.mutableContainers` and `.mutableLeaves` have no effect, since the
    /// result is made of Swift value types. Any other option is left to `JSONSerialization`.
    public var readingOptions: JSONSerialization.ReadingOptions
    /// Removes `null` object members and array elements at every depth, as
    /// `AFJSONObjectByRemovingKeysWithNullValues` did.
    public var removesKeysWithNullValues: Bool
    /// Transforms the body before it is parsed, e.g. ``XSSIPrefixPreprocessor``.
    public var dataPreprocessor: any DataPreprocessor

    /// Creates a serializer.
    public init(
        readingOptions: JSONSerialization.ReadingOptions = [],
        removesKeysWithNullValues: Bool = false,
        acceptableStatusCodes: IndexSet = Self.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<MediaType>? = Self.defaultAcceptableContentTypes,
        dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor()
    ) {
        self.readingOptions = readingOptions
        self.removesKeysWithNullValues = removesKeysWithNullValues
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
        self.dataPreprocessor = dataPreprocessor
    }

    /// Rethrows a transport error, validates, preprocesses and parses the body.
    ///
    /// - Returns: the JSON value, or `nil` for an empty body or a single space.
    /// - Throws: the transport error, a validation error, or
    ///   ``ResponseSerializationError/Code/jsonDecodingFailed`` whose message quotes at most
    ///   1 KB of the body.
    public func serialize(_ input: ResponseInput) throws -> (any Sendable)? {
        if let error = input.error { throw error }
        try validate(input)
        guard let data = input.data, !data.isEmpty else { return nil }
        let body = try dataPreprocessor.preprocess(data)
        // Rails answers `head :ok` with a single space, which JSONSerialization rejects.
        if body.isEmpty || (body.count == 1 && body.first == UInt8(ascii: " ")) { return nil }
        if let value = JSONBytesParser.parse(body, options: readingOptions, removingNulls: removesKeysWithNullValues) {
            return value
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: body, options: readingOptions)
            // Foundation on Linux accepts a trailing comma, which RFC 8259 and Apple's
            // Foundation refuse; the fast path leaves such a body here (JSONTrailingComma).
            if let offset = JSONTrailingComma.offset(in: body) { throw JSONTrailingComma.error(atOffset: offset) }
        } catch {
            throw ResponseSerializationError(
                .jsonDecodingFailed,
                BodyExcerpt.message("JSON could not be parsed: \(BoundedError.reason(of: error))", body: data),
                response: input.response,
                data: data,
                underlyingError: error
            )
        }
        return JSONTree.sendable(object, removingNulls: removesKeysWithNullValues)
    }
}
