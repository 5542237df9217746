/// `Parameters` made `Encodable`, so a `JSONEncoder` writes them with its own strategies for
/// dates, data and keys. Containers (`[String: Any]`, `[Any]`) are walked here; every other
/// value must be `Encodable` itself (`String`, numbers, `Date`, `Data`, `URL`, `Decimal`, an
/// app's own types) or an `NSNumber`, `NSNull` or `nil`.
struct EncodableParameters: Encodable {
    let value: Any

    func encode(to encoder: any Encoder) throws {
        guard let value = unwrappedOptional(value), !(value is NSNull) else {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
            return
        }
        if let flag = value as? Bool, type(of: value) == Bool.self || NumberKind.isBoolean(value) {
            var container = encoder.singleValueContainer()
            try container.encode(flag)
        } else if let encodable = value as? any Encodable {
            // Through a container, not `encodable.encode(to:)`: only then does JSONEncoder apply
            // its date, data and URL strategies to the concrete type.
            var container = encoder.singleValueContainer()
            try container.encode(encodable)
        } else if let dictionary = value as? [String: Any] {
            var container = encoder.container(keyedBy: StringKey.self)
            for key in dictionary.keys.sorted() {
                try container.encode(EncodableParameters(value: dictionary[key] as Any), forKey: StringKey(key))
            }
        } else if let array = value as? [Any] {
            var container = encoder.unkeyedContainer()
            for element in array {
                try container.encode(EncodableParameters(value: element))
            }
        } else if let number = value as? NSNumber {
            var container = encoder.singleValueContainer()
            try encodeNumber(number, into: &container)
        } else {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: encoder.codingPath,
                    debugDescription: "A value of type \(type(of: value)) is not Encodable"
                )
            )
        }
    }

    private func encodeNumber(_ number: NSNumber, into container: inout any SingleValueEncodingContainer) throws {
        switch UInt8(bitPattern: number.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"):
            try container.encode(number.doubleValue)
        case UInt8(ascii: "Q"), UInt8(ascii: "L"), UInt8(ascii: "I"), UInt8(ascii: "S"), UInt8(ascii: "C"):
            try container.encode(number.uint64Value)
        default:
            try container.encode(number.int64Value)
        }
    }

    private struct StringKey: CodingKey {
        let stringValue: String
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { return nil }
    }
}
