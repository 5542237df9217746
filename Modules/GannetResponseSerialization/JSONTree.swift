/// Rebuilds `JSONSerialization`'s `Any` tree from sendable values in one pass, dropping nulls
/// on the way when asked (so removing them costs no second walk).
///
/// Recursion is bounded: `JSONSerialization` refuses documents nested deeper than 512 levels.
/// Package access: the CLI turns its `name:=` JSON items into `Parameters` with it.
package enum JSONTree {
    /// `object` (what `JSONSerialization` read) as `Sendable` values: dictionaries, arrays,
    /// `String`, `NSNumber` and `NSNull`, nulls dropped when `removingNulls`.
    package static func sendable(_ object: Any, removingNulls: Bool) -> any Sendable {
        // Dispatch on the exact dynamic type first. On Linux a failing `as? String` tries
        // Foundation bridging and costs microseconds: a leaves-first chain of `as?` casts took
        // 7x as long as parsing a 1 MB document, exact type tests 0.4x.
        let type = type(of: object)
        if type == String.self, let string = object as? String { return string }
        if type is NSNumber.Type, let number = object as? NSNumber { return number }
        if type == [String: Any].self, let dictionary = object as? [String: Any] {
            return sendable(dictionary, removingNulls: removingNulls)
        }
        if type == [Any].self, let array = object as? [Any] { return sendable(array, removingNulls: removingNulls) }
        if type is NSNull.Type { return NSNull() }
        // `.mutableContainers` returns NSMutableArray and NSMutableDictionary, whose bridging
        // turns the boolean NSNumber into a Swift `Bool`: make it that NSNumber again rather
        // than the string "true" the last line below would make.
        if type == Bool.self, let bool = object as? Bool { return NSNumber(value: bool) }
        // Other shapes (NSString, NSDictionary from the `mutable…` reading options) bridge.
        if let string = object as? String { return string }
        if let dictionary = object as? [String: Any] { return sendable(dictionary, removingNulls: removingNulls) }
        if let array = object as? [Any] { return sendable(array, removingNulls: removingNulls) }
        // JSONSerialization produces nothing else; keep a readable value rather than trap.
        return String(describing: object)
    }

    private static func sendable(_ dictionary: [String: Any], removingNulls: Bool) -> [String: any Sendable] {
        var result: [String: any Sendable] = [:]
        result.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            if removingNulls && isNull(value) { continue }
            result[key] = sendable(value, removingNulls: removingNulls)
        }
        return result
    }

    private static func sendable(_ array: [Any], removingNulls: Bool) -> [any Sendable] {
        var result: [any Sendable] = []
        result.reserveCapacity(array.count)
        for element in array {
            if removingNulls && isNull(element) { continue }
            result.append(sendable(element, removingNulls: removingNulls))
        }
        return result
    }

    /// A type test, not `is NSNull`, which would try to bridge every string first.
    private static func isNull(_ value: Any) -> Bool {
        type(of: value) is NSNull.Type
    }
}
