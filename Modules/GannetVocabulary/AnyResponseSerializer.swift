/// A response serializer with its output type erased to `(any Sendable)?`: the `id
/// responseObject` of AFNetworking's handlers, and what lets serializers of different outputs
/// (JSON, `String`, an app's `MessagePackValue`) sit in one `ResponseSerializerRegistry`.
///
/// A `nil` the wrapped serializer returns stays `nil`, however deeply it is wrapped:
/// `JSONResponseSerializer`'s `nil` for an empty body reaches a callback as `nil`, not as
/// `Optional(nil)` boxed in an existential. A non-nil optional is left as it is: dynamic casts
/// (`as? [String: Any]`) look through it.
///
/// ```swift
/// let serializer = AnyResponseSerializer(.decodable(of: User.self))
/// let user = try serializer.serialize(ResponseInput(response: response, data: data)) as? User
/// ```
public struct AnyResponseSerializer: ResponseSerializing {
    /// Any sendable value, or `nil` where the wrapped serializer returns `nil`.
    public typealias Output = (any Sendable)?

    /// The wrapped serializer; never itself an `AnyResponseSerializer`.
    public let base: any ResponseSerializing

    /// Wraps `serializer`; wrapping an `AnyResponseSerializer` again wraps its ``base``.
    public init<S: ResponseSerializing>(_ serializer: S) {
        base = Self.unwrapped(serializer)
    }

    /// Wraps a serializer whose output is optional, keeping its `nil` as `nil`.
    public init<S: ResponseSerializing, Wrapped: Sendable>(_ serializer: S) where S.Output == Wrapped? {
        // An `AnyResponseSerializer` has an optional output, so wrapping one lands here.
        base = Self.unwrapped(serializer)
    }

    /// `serializer`, or the base of an `AnyResponseSerializer`. The types are compared first:
    /// `HTTPSessionManager` wraps its serializer for every task, and the cast alone cost about
    /// 600 instructions when it failed (callgrind, docs/performance.md).
    private static func unwrapped<S: ResponseSerializing>(_ serializer: S) -> any ResponseSerializing {
        guard S.self == AnyResponseSerializer.self, let wrapper = serializer as? AnyResponseSerializer else {
            return serializer
        }
        return wrapper.base
    }

    /// Runs the wrapped serializer.
    public func serialize(_ input: ResponseInput) throws -> (any Sendable)? {
        let value = try base.serialize(input)
        return isEmptyOptional(value) ? nil : value
    }

    /// Asks the wrapped serializer.
    public func validate(_ input: ResponseInput) throws {
        try base.validate(input)
    }
}
