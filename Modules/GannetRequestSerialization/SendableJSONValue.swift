/// Converts what `JSONSerialization` returns (`NSNumber`, `NSNull`, `[String: Any]`, `[Any]`)
/// into `Sendable` values, so a decoded JSON object can become `Parameters`.
enum SendableJSONValue {
    static func make(_ value: Any) -> any Sendable {
        if let dictionary = value as? [String: Any] {
            return dictionary.mapValues(make)
        }
        if let array = value as? [Any] {
            return array.map(make)
        }
        if let text = value as? String {
            return text
        }
        if NumberKind.isBoolean(value), let flag = value as? Bool {
            return flag
        }
        if let number = value as? NSNumber {
            switch UInt8(bitPattern: number.objCType.pointee) {
            case UInt8(ascii: "f"), UInt8(ascii: "d"):
                return number.doubleValue
            case UInt8(ascii: "Q"):
                return number.uint64Value
            default:
                return number.int64Value
            }
        }
        // NSNull and anything unexpected: written as a bare key, like nil.
        return String?.none
    }
}
