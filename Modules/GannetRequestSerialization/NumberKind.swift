/// Tells the numbers inside `any Sendable` apart: Swift's `Bool`, `Int` and `Double` all bridge
/// to `NSNumber` (so `1 as Any as? Bool` succeeds for an `NSNumber`), and `NSNumber(value: true)`
/// is an instance of a private boolean subclass on Linux as on Darwin.
enum NumberKind {
    /// The class of `NSNumber(value: true)`; booleans decoded by `JSONSerialization` share it.
    private static let booleanClass = ObjectIdentifier(type(of: NSNumber(value: true)))

    /// Whether `value` is an `NSNumber` that was made from a `Bool`.
    static func isBoolean(_ value: Any) -> Bool {
        guard let number = value as? NSNumber, type(of: value) != Bool.self else { return false }
        return ObjectIdentifier(type(of: number)) == booleanClass
    }

    /// The decimal text of a number that is not a boolean, `nil` for anything else.
    static func text(of value: Any) -> String? {
        switch value {
        case let integer as any BinaryInteger:
            return "\(integer)"
        case let double as Double where type(of: value) == Double.self:
            return shortest(double)
        case let float as Float where type(of: value) == Float.self:
            return float.isFinite && float == float.rounded() && abs(float) < 1e7 ? String(Int64(float)) : "\(float)"
        case let decimal as Decimal where type(of: value) == Decimal.self:
            return decimal.description
        case let number as NSNumber where !isBoolean(value):
            return number.stringValue
        default:
            return nil
        }
    }
}
