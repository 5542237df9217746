import Foundation
import Testing

@testable import GannetCore

/// `unwrappedOptional` and `isEmptyOptional` see through every `Optional` boxed in `Any`, by
/// their shortcut for `(any Sendable)?` (the serializers' output) and by their general path
/// alike.
@Suite("Optionals seen through their boxes")
struct OptionalInspectingTests {
    @Test func theSerializersOutputIsUnwrappedToItsValueOrNil() {
        let some: (any Sendable)? = ["ok": 1]
        let none: (any Sendable)? = nil
        #expect(unwrappedOptional(some as Any) as? [String: Int] == ["ok": 1])
        #expect(unwrappedOptional(none as Any) == nil)
        #expect(isEmptyOptional(none as Any))
        #expect(!isEmptyOptional(some as Any))
    }

    @Test func wrappersInsideTheSerializersOutputAreUnwrappedToo() {
        let emptyInside: (any Sendable)? = .some(Int?.none)
        let fullInside: (any Sendable)? = .some(Int?.some(7))
        let nested: (any Sendable)? = .some(Optional<(any Sendable)?>.some(.some("x")))
        #expect(unwrappedOptional(emptyInside as Any) == nil)
        #expect(unwrappedOptional(fullInside as Any) as? Int == 7)
        #expect(unwrappedOptional(nested as Any) as? String == "x")
        #expect(isEmptyOptional(emptyInside as Any))
        #expect(!isEmptyOptional(fullInside as Any))
        #expect(!isEmptyOptional(nested as Any))
        #expect(isEmptyOptional(Optional<(any Sendable)?>.some(.none) as (any Sendable)? as Any))
    }

    @Test func otherOptionalsAndPlainValuesTakeTheGeneralPath() {
        #expect(unwrappedOptional(String??.some(.none) as Any) == nil)
        #expect(unwrappedOptional(String??.some("y") as Any) as? String == "y")
        #expect(unwrappedOptional(Data([1, 2]) as Any) as? Data == Data([1, 2]))
        #expect(unwrappedOptional(Any?.none as Any) == nil)
        #expect(isEmptyOptional(String??.some(.none) as Any))
        #expect(!isEmptyOptional(String??.some("y") as Any))
        #expect(!isEmptyOptional(Data([1, 2]) as Any))
        #expect(!isEmptyOptional(Data() as Any), "an empty value is not an empty Optional")
        #expect(isEmptyOptional(Any?.none as Any))
    }
}
