/// A property list from the body, read by Foundation's `PropertyListSerialization` (XML, binary
/// or OpenStep): AFNetworking's `AFPropertyListResponseSerializer`.
///
/// ```swift
/// manager.responseSerializer = PropertyListResponseSerializer()
/// ```
///
/// The value is rebuilt from sendable values: `[String: any Sendable]`, `[any Sendable]`,
/// `String`, `NSNumber` (integers, reals and booleans), `Date` and `Data`. An empty body (a 204,
/// a `HEAD`) gives `nil` and no error, as in AFNetworking; a body that is not a property list
/// fails with ``ResponseSerializationError/Code/decodingFailed``.
public struct PropertyListResponseSerializer: ResponseValidating {
    /// `(any Sendable)?`: `nil` for an empty body.
    public typealias Output = (any Sendable)?

    /// `application/x-plist`, AFNetworking's one type.
    public static let defaultAcceptableContentTypes: Set<MediaType> = ["application/x-plist"]

    /// Status codes that count as success; 200–299 by default.
    public var acceptableStatusCodes: IndexSet
    /// Media types the body may have; ``defaultAcceptableContentTypes`` by default.
    public var acceptableContentTypes: Set<MediaType>?
    /// Options for `PropertyListSerialization`; the result is immutable whatever they say.
    public var readOptions: PropertyListSerialization.ReadOptions

    /// Creates a serializer.
    public init(
        readOptions: PropertyListSerialization.ReadOptions = [],
        acceptableStatusCodes: IndexSet = Self.defaultAcceptableStatusCodes,
        acceptableContentTypes: Set<MediaType>? = Self.defaultAcceptableContentTypes
    ) {
        self.readOptions = readOptions
        self.acceptableStatusCodes = acceptableStatusCodes
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Rethrows a transport error, validates and parses the body.
    ///
    /// - Returns: the property list, or `nil` for an empty body.
    /// - Throws: the transport error, a validation error, or
    ///   ``ResponseSerializationError/Code/decodingFailed`` quoting at most 1 KB of the body.
    public func serialize(_ input: ResponseInput) throws -> (any Sendable)? {
        if let error = input.error { throw error }
        try validate(input)
        guard let data = input.data, !data.isEmpty else { return nil }
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: data, options: readOptions, format: nil)
        } catch {
            throw ResponseSerializationError(
                .decodingFailed,
                BodyExcerpt.message(
                    "The property list could not be parsed: \(BoundedError.reason(of: error))",
                    body: data
                ),
                response: input.response,
                data: data,
                underlyingError: error
            )
        }
        return Self.sendable(object)
    }

    /// `object` (what `PropertyListSerialization` read) as sendable values.
    static func sendable(_ object: Any) -> any Sendable {
        switch object {
        case let string as String: return string
        case let date as Date: return date
        case let data as Data: return data
        case let dictionary as [String: Any]: return dictionary.mapValues(sendable)
        case let array as [Any]: return array.map(sendable)
        case let number as NSNumber: return number
        case let bool as Bool: return NSNumber(value: bool)
        case let int as Int: return NSNumber(value: int)
        case let double as Double: return NSNumber(value: double)
        // PropertyListSerialization produces nothing else; keep a readable value rather than trap.
        default: return String(describing: object)
        }
    }
}
