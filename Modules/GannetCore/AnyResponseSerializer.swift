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
/// let user = try serializer.serialize(request: nil, response: response, data: data, error: nil) as? User
/// ```
public struct AnyResponseSerializer: ResponseSerializing {
    /// Any sendable value, or `nil` where the wrapped serializer returns `nil`.
    public typealias Output = (any Sendable)?

    /// The wrapped serializer; never itself an `AnyResponseSerializer`.
    public let base: any ResponseSerializing

    /// Wraps `serializer`; wrapping an `AnyResponseSerializer` again wraps its ``base``.
    public init<S: ResponseSerializing>(_ serializer: S) {
        base = (serializer as? AnyResponseSerializer)?.base ?? serializer
    }

    /// Wraps a serializer whose output is optional, keeping its `nil` as `nil`.
    public init<S: ResponseSerializing, Wrapped: Sendable>(_ serializer: S) where S.Output == Wrapped? {
        // An `AnyResponseSerializer` has an optional output, so wrapping one lands here.
        base = (serializer as? AnyResponseSerializer)?.base ?? serializer
    }

    /// Runs the wrapped serializer.
    public func serialize(
        request: URLRequest?,
        response: HTTPURLResponse?,
        data: Data?,
        error: (any Error)?
    ) throws -> (any Sendable)? {
        let value = try base.serialize(request: request, response: response, data: data, error: error)
        return isEmptyOptional(value) ? nil : value
    }
}

extension AnyResponseSerializer: ResponseViewSerializing {
    /// Runs the wrapped serializer, through the view when it reads one.
    package func serialize(
        request: URLRequest?,
        view: ResponseView?,
        data: Data?,
        error: (any Error)?
    ) throws -> (any Sendable)? {
        let value: any Sendable
        if let viewing = base as? any ResponseViewSerializing {
            value = try viewing.serialize(request: request, view: view, data: data, error: error)
        } else {
            value = try base.serialize(request: request, response: view?.response, data: data, error: error)
        }
        return isEmptyOptional(value) ? nil : value
    }
}
