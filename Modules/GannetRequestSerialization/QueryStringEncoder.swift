/// One `field=value` of a query string or form, before escaping: AFNetworking's `AFQueryStringPair`.
struct QueryPair {
    /// A leaf value: text, bytes (kept raw for multipart, Base64 in a query), or no value at all.
    enum Value {
        /// `NSNull` or `nil`: written as the bare field, `flag` (AFNetworking's rule), or an empty
        /// multipart part.
        case null
        case text(String)
        case data(Data)
    }

    let field: String
    let value: Value
}

/// AFNetworking's `AFQueryStringPairsFromKeyAndValue` and `AFQueryStringFromParameters`.
///
/// Rules, in order:
/// - Dictionary entries become `key[sub]`, sorted by key. Keys are compared as Swift `String`s
///   (Unicode canonical order, not locale-sensitive), which agrees with AFNetworking's
///   `description`/`compare:` sort for ASCII keys and is stable everywhere. Non-`String` keys
///   are sorted and written by their `description`.
/// - Array elements become ``RequestSerializerConfiguration/ArrayEncoding``'s key (`key[]` by
///   default), in array order; set elements repeat `key`, sorted by `description`.
/// - Empty dictionaries, arrays and sets write nothing, as in AFNetworking.
/// - `nil` and `NSNull` write the bare key (`key`, no `=`).
/// - Leaves: `String`, `Bool` (and `NSNumber` booleans) through ``RequestSerializerConfiguration/boolEncoding``,
///   integers in decimal, `Double`/`Float` as their shortest round-trip text without a trailing
///   `.0` (`1`, `1.5`, `1e-07`), `Decimal` and other `NSNumber`s by their description, `Date` through
///   ``RequestSerializerConfiguration/dateEncoding``, `Data` through
///   ``RequestSerializerConfiguration/dataEncoding``, `URL` as its absolute string, `UUID` in
///   upper case, `RawRepresentable` by its raw value, then anything `CustomStringConvertible`
///   by its description (AFNetworking's rule). Other values throw
///   ``RequestSerializationError/Code/parameterEncodingFailed``.
struct QueryStringEncoder {
    let configuration: RequestSerializerConfiguration

    /// The pairs of `parameters`, in the order they are written.
    func pairs(from parameters: Parameters) throws -> [QueryPair] {
        var pairs: [QueryPair] = []
        for key in parameters.keys.sorted() {
            try append(key, parameters[key] as Any, into: &pairs)
        }
        return pairs
    }

    /// The percent-escaped query string of `parameters`, without a leading `?`.
    func queryString(from parameters: Parameters) throws -> String {
        try pairs(from: parameters).map(escaped).joined(separator: "&")
    }

    func escaped(_ pair: QueryPair) throws -> String {
        let field = try escape(pair.field)
        switch pair.value {
        case .null:
            return field
        case .text(let text):
            return try field + "=" + escape(text)
        case .data(let data):
            return try field + "=" + escape(configuration.dataEncoding.encode(data))
        }
    }

    private func escape(_ text: String) throws -> String {
        try PercentEscaping.escape(
            text,
            encoding: configuration.stringEncoding,
            spaceEncoding: configuration.spaceEncoding
        )
    }

    private func append(_ key: String, _ value: Any, into pairs: inout [QueryPair]) throws {
        guard let value = unwrappedOptional(value) else {
            pairs.append(QueryPair(field: key, value: .null))
            return
        }
        if let entries = dictionaryEntries(value) {
            for (nestedKey, nestedValue) in entries {
                try append("\(key)[\(nestedKey)]", nestedValue, into: &pairs)
            }
        } else if let elements = value as? [Any] {
            for (index, element) in elements.enumerated() {
                try append(configuration.arrayEncoding.key(key, index), element, into: &pairs)
            }
        } else if let set = value as? Set<AnyHashable> {
            for element in set.map({ ($0, String(describing: $0.base)) }).sorted(by: { $0.1 < $1.1 }) {
                try append(key, element.0.base, into: &pairs)
            }
        } else {
            pairs.append(QueryPair(field: key, value: try leaf(value, key: key)))
        }
    }

    private func dictionaryEntries(_ value: Any) -> [(String, Any)]? {
        if let dictionary = value as? [String: Any] {
            return dictionary.keys.sorted().map { ($0, dictionary[$0] as Any) }
        }
        if let dictionary = value as? [AnyHashable: Any] {
            return dictionary.map { (String(describing: $0.key.base), $0.value) }.sorted { $0.0 < $1.0 }
        }
        return nil
    }

    private func leaf(_ value: Any, key: String) throws -> QueryPair.Value {
        if value is NSNull { return .null }
        if let text = value as? String { return .text(text) }
        if let flag = value as? Bool, type(of: value) == Bool.self || NumberKind.isBoolean(value) {
            return .text(configuration.boolEncoding.encode(flag))
        }
        if let data = value as? Data { return .data(data) }
        if let date = value as? Date { return .text(configuration.dateEncoding.encode(date)) }
        if let text = NumberKind.text(of: value) { return .text(text) }
        if let url = value as? URL { return .text(url.absoluteString) }
        if let uuid = value as? UUID { return .text(uuid.uuidString) }
        if let raw = value as? any RawRepresentable {
            return try leaf(rawValue(of: raw), key: key)
        }
        if let text = value as? any LosslessStringConvertible { return .text(text.description) }
        if let text = value as? any CustomStringConvertible { return .text(text.description) }
        throw RequestSerializationError(
            .parameterEncodingFailed,
            "The value for \(RequestValidation.printable(key)) has type \(type(of: value)), which has no query-string form"
        )
    }

    private func rawValue<R: RawRepresentable>(of value: R) -> Any { value.rawValue }
}
