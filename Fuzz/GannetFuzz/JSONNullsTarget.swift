import Foundation
import GannetResponseSerialization

extension FuzzTarget {
    /// `JSONResponseSerializer` with `removesKeysWithNullValues`. Invariants: a failure is a
    /// `ResponseSerializationError`; no `NSNull` is left in any object or array; every other
    /// value of the plain parse is kept.
    static let jsonNulls = FuzzTarget(name: "json-nulls") { bytes in
        let data = Data(bytes)
        let removing = JSONResponseSerializer(readingOptions: [.fragmentsAllowed], removesKeysWithNullValues: true)
        let keeping = JSONResponseSerializer(readingOptions: [.fragmentsAllowed], removesKeysWithNullValues: false)
        let stripped: (any Sendable)?
        let plain: (any Sendable)?
        do {
            stripped = try removing.serialize(request: nil, response: nil, data: data, error: nil)
            plain = try keeping.serialize(request: nil, response: nil, data: data, error: nil)
        } catch {
            require(error is ResponseSerializationError, "json threw \(type(of: error))")
            return
        }
        guard let stripped, let plain else { return }
        let counts = leaves(stripped)
        require(counts.nulls == 0 || stripped is NSNull, "a null is left")
        let expected = leaves(plain)
        require(counts.others == expected.others, "values lost: \(counts.others) of \(expected.others)")
    }

    /// Nulls inside containers and all other leaves of a JSON tree.
    private static func leaves(_ value: Any) -> (nulls: Int, others: Int) {
        if let dictionary = value as? [String: any Sendable] {
            return dictionary.values.reduce((0, 0)) { sum, child in
                let inner = leaves(child)
                return (sum.0 + inner.nulls + (child is NSNull ? 1 : 0), sum.1 + inner.others)
            }
        }
        if let array = value as? [any Sendable] {
            return array.reduce((0, 0)) { sum, child in
                let inner = leaves(child)
                return (sum.0 + inner.nulls + (child is NSNull ? 1 : 0), sum.1 + inner.others)
            }
        }
        return value is NSNull ? (0, 0) : (0, 1)
    }
}
