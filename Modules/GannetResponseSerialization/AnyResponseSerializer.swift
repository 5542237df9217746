/// A response serializer with its output type erased to `(any Sendable)?`, so serializers of
/// different outputs (JSON, `String`, an app's `MessagePackValue`) can sit in one
/// ``ResponseSerializerRegistry``.
///
/// A serializer whose output is already optional is flattened: `JSONResponseSerializer`'s `nil`
/// for an empty body stays `nil`, not `Optional(nil)`.
///
/// ```swift
/// let serializer = AnyResponseSerializer(.decodable(of: User.self))
/// let user = try serializer.serialize(request: nil, response: response, data: data, error: nil) as? User
/// ```
public struct AnyResponseSerializer: ResponseSerializing {
    /// Any sendable value, or `nil` where the wrapped serializer returns `nil`.
    public typealias Output = (any Sendable)?

    private let body: @Sendable (URLRequest?, HTTPURLResponse?, Data?, (any Error)?) throws -> (any Sendable)?
    /// The wrapped serializer accepting more, for ``ResponseSerializerRegistry``'s own settings;
    /// kept as a closure because only the generic initializers know the wrapped type.
    private let widen: @Sendable (ResponseAcceptance) -> AnyResponseSerializer

    /// Wraps `serializer`.
    public init<S: ResponseSerializing>(_ serializer: S) {
        body = { try serializer.serialize(request: $0, response: $1, data: $2, error: $3) }
        widen = { AnyResponseSerializer($0.widening(serializer)) }
    }

    /// Wraps a serializer whose output is optional, keeping its `nil` as `nil`.
    public init<S: ResponseSerializing, Wrapped: Sendable>(_ serializer: S) where S.Output == Wrapped? {
        body = { try serializer.serialize(request: $0, response: $1, data: $2, error: $3).map { $0 } }
        widen = { AnyResponseSerializer($0.widening(serializer)) }
    }

    /// The wrapped serializer, when it is ``ResponseValidating``, also accepting what
    /// `acceptance` names; any other serializer unchanged.
    func accepting(_ acceptance: ResponseAcceptance) -> AnyResponseSerializer {
        widen(acceptance)
    }

    /// Runs the wrapped serializer.
    public func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> (any Sendable)? {
        try body(request, response, data, error)
    }
}
