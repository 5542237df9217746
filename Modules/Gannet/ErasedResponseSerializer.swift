/// Erases a serializer's output to `(any Sendable)?`, the `id responseObject` of
/// AFNetworking's handlers.
///
/// The serializer is an existential, so its output arrives boxed as `any Sendable`: a JSON
/// serializer's `nil` (empty body) would become a non-nil box holding `nil`. A boxed `nil` is
/// turned back into a plain `nil` at run time, as AFNetworking's handlers saw it.
struct ErasedResponseSerializer: ResponseSerializing {
    let base: any ResponseSerializing

    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> (any Sendable)? {
        Self.flatten(try base.serialize(request: request, response: response, data: data, error: error))
    }

    static func flatten(_ value: any Sendable) -> (any Sendable)? {
        (value as? any OptionalInspecting)?.isNone == true ? nil : value
    }
}

/// Lets ``ErasedResponseSerializer`` see a `nil` hidden in an existential box. A non-nil
/// optional is left as it is: dynamic casts (`as? [String: Any]`) look through it.
protocol OptionalInspecting {
    var isNone: Bool { get }
}

extension Optional: OptionalInspecting {
    var isNone: Bool {
        switch self {
        case .none: return true
        case .some(let wrapped): return (wrapped as? any OptionalInspecting)?.isNone ?? false
        }
    }
}
