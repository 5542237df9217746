/// Validates the status code and content type, then returns the body as received:
/// AFNetworking's `AFHTTPResponseSerializer`.
///
/// An empty body is a valid result (empty `Data`), whatever the status. Use
/// ``DataResponseSerializer`` to treat an unexpected empty body as an error, or to preprocess
/// the bytes.
///
/// ```swift
/// var serializer = HTTPResponseSerializer()
/// serializer.acceptableStatusCodes.insert(304)
/// serializer.acceptableContentTypes = ["image/png", "image/jpeg"]
/// ```
public struct HTTPResponseSerializer: ResponseValidating {
    /// Status codes that count as success; 200–299 by default.
    public var acceptableStatusCodes: IndexSet
    /// Media types the body may have; `nil` (the default) accepts any.
    public var acceptableContentTypes: Set<MediaType>?

    /// Creates a serializer; by default it accepts 200–299 and any content type.
    public init(
        acceptableStatusCodes: IndexSet = Self.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<MediaType>? = nil
    ) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Rethrows a transport error, validates the response, and returns the body (empty `Data`
    /// when there was none).
    public func serialize(_ input: ResponseInput) throws -> Data {
        if let error = input.error { throw error }
        try validate(input)
        return input.data ?? Data()
    }
}
