/// Sees the `Optional` hidden in an `Any` or `any Sendable` box, which `== nil` cannot: a
/// serializer's `nil` boxed as `any Sendable` is a non-nil box holding `nil`. The one such
/// protocol of the package (``AnyResponseSerializer`` and the query-string encoder use it).
package protocol OptionalInspecting {
    /// The wrapped value boxed as `Any`, `nil` when empty.
    var wrappedAny: Any? { get }
}

extension Optional: OptionalInspecting {
    package var wrappedAny: Any? { map { $0 as Any } }
}

/// `value` with any number of `Optional` wrappers removed; `nil` when one of them is empty.
package func unwrappedOptional(_ value: Any) -> Any? {
    unwrappedOpened(value)
}

/// ``unwrappedOptional(_:)`` with the box opened, so that its commonest `Optional` is known by
/// comparing types instead of by dynamic casts.
private func unwrappedOpened<Value>(_ value: Value) -> Any? {
    // `(any Sendable)?` is the output of the JSON, property-list and type-erased serializers:
    // `HTTPSessionManager` unwraps one twice per response. Recognised by its type, it costs no
    // conformance lookup, no cast and no new box (12,000 instructions a response for the two,
    // callgrind, docs/performance.md). The bit cast is between a type and itself.
    if Value.self == Optional<any Sendable>.self {
        return unsafeBitCast(value, to: Optional<any Sendable>.self).flatMap { unwrappedOptional($0) }
    }
    // A test of the dynamic type's kind first: for a value that is no `Optional`, the failing
    // value cast tried every bridging route, and the metatype cast that replaced it still
    // looked up conformances, about 800 instructions for the JSON serializer's dictionary
    // (callgrind, docs/performance.md). `_isOptional` reads the type's metadata.
    guard _isOptional(Value.self), let optional = value as? any OptionalInspecting else {
        return value
    }
    return optional.wrappedAny.flatMap(unwrappedOptional)
}

/// Whether `value` is an empty `Optional`, however many wrappers deep. Answered without making
/// the unwrapped value: ``unwrappedOptional(_:)`` copied it into a new `Any?` and destroyed it,
/// through the runtime's value witnesses, about 600 instructions for each response of
/// `HTTPSessionManager` (callgrind, docs/performance.md).
package func isEmptyOptional(_ value: Any) -> Bool {
    isEmptyOpened(value)
}

/// ``isEmptyOptional(_:)`` with the box opened, by the same shortcut and general path as
/// `unwrappedOpened(_:)`.
private func isEmptyOpened<Value>(_ value: Value) -> Bool {
    guard _isOptional(Value.self) else { return false }
    if Value.self == Optional<any Sendable>.self {
        guard let wrapped = unsafeBitCast(value, to: Optional<any Sendable>.self) else { return true }
        return isEmptyOptional(wrapped)
    }
    guard let optional = value as? any OptionalInspecting else { return false }
    guard let wrapped = optional.wrappedAny else { return true }
    return isEmptyOptional(wrapped)
}
