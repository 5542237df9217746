/// Rebuilds `JSONSerialization`'s `Any` tree from sendable values in one pass, dropping nulls
/// on the way when asked (so removing them costs no second walk).
///
/// Recursion is bounded: `JSONSerialization` refuses documents nested deeper than 512 levels.
enum JSONTree {
    static func sendable(_ object: Any, removingNulls: Bool) -> any Sendable {
        // Most of a document is leaves, so they are tested first.
        if let string = object as? String { return string }
        if let number = object as? NSNumber { return number }
        if let dictionary = object as? [String: Any] {
            var result: [String: any Sendable] = [:]
            result.reserveCapacity(dictionary.count)
            for (key, value) in dictionary {
                if removingNulls && value is NSNull { continue }
                result[key] = sendable(value, removingNulls: removingNulls)
            }
            return result
        }
        if let array = object as? [Any] {
            var result: [any Sendable] = []
            result.reserveCapacity(array.count)
            for element in array {
                if removingNulls && element is NSNull { continue }
                result.append(sendable(element, removingNulls: removingNulls))
            }
            return result
        }
        if object is NSNull { return NSNull() }
        // JSONSerialization produces nothing else; keep a readable value rather than trap.
        return String(describing: object)
    }
}
