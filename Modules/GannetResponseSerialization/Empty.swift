/// A type whose value stands for "no body": what ``DecodableResponseSerializer`` returns for a
/// 204, 205, 304 or `HEAD` response instead of failing to decode nothing.
public protocol EmptyResponse: Sendable {
    /// The value to return for an empty body.
    static func emptyValue() -> Self
}

/// The value of a response that has no body.
///
/// ```swift
/// let _: Empty = try await manager.value(for: deleteRequest, serializer: .decodable(of: Empty.self))
/// ```
///
/// `Empty` also decodes from `{}`, so an endpoint that answers either way works.
public struct Empty: Codable, Sendable, Hashable, EmptyResponse {
    /// The one value.
    public static let value = Empty()

    /// Creates the value; same as ``value``.
    public init() {}

    /// Returns ``value``.
    public static func emptyValue() -> Empty { value }
}
