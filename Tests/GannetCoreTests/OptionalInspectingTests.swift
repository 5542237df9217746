import Foundation
import Testing

@testable import GannetCore

/// `unwrappedOptional` sees through every `Optional` boxed in `Any`, by its shortcut for
/// `(any Sendable)?` (the serializers' output) and by its general path alike.
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
    }

    @Test func otherOptionalsAndPlainValuesTakeTheGeneralPath() {
        #expect(unwrappedOptional(String??.some(.none) as Any) == nil)
        #expect(unwrappedOptional(String??.some("y") as Any) as? String == "y")
        #expect(unwrappedOptional(Data([1, 2]) as Any) as? Data == Data([1, 2]))
        #expect(unwrappedOptional(Any?.none as Any) == nil)
    }
}
