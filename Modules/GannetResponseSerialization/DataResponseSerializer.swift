/// Validated, preprocessed body bytes, with an error for an unexpected empty body.
///
/// Unlike ``HTTPResponseSerializer``, which returns whatever arrived, an empty body is only
/// accepted for ``emptyResponseCodes`` and ``emptyRequestMethods`` (see
/// ``ResponseBodySerializing``), where it yields empty `Data`.
///
/// ```swift
/// let data = try await manager.value(for: request, serializer: .data)
/// ```
public struct DataResponseSerializer: ResponseBodySerializing {
    /// Status codes that count as success; 200–299 by default.
    public var acceptableStatusCodes: IndexSet
    /// Media types the body may have; `nil` (the default) accepts any.
    public var acceptableContentTypes: Set<MediaType>?
    /// Transforms the body before it is returned.
    public var dataPreprocessor: any DataPreprocessor
    /// Status codes whose response may have an empty body; 204, 205, 304 by default.
    public var emptyResponseCodes: Set<Int>
    /// Request methods whose response may have an empty body; `HEAD` by default.
    public var emptyRequestMethods: Set<String>

    /// Creates a serializer.
    public init(
        acceptableStatusCodes: IndexSet = Self.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<MediaType>? = nil,
        dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor(),
        emptyResponseCodes: Set<Int> = Self.defaultEmptyResponseCodes,
        emptyRequestMethods: Set<String> = Self.defaultEmptyRequestMethods
    ) {
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
        self.dataPreprocessor = dataPreprocessor
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// The preprocessed body, or empty `Data` where an empty body is allowed.
    public func serialize(_ input: ResponseInput) throws -> Data {
        try validatedBody(input) ?? Data()
    }
}
