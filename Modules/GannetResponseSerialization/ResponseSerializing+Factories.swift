// Dot-syntax for serializers wherever a `ResponseSerializing` is expected:
// `manager.value(for: request, serializer: .decodable(of: User.self))`.

extension ResponseSerializing where Self == HTTPResponseSerializer {
    /// Validated body as received (AFNetworking's `AFHTTPResponseSerializer`).
    public static var http: HTTPResponseSerializer { HTTPResponseSerializer() }
}

extension ResponseSerializing where Self == DataResponseSerializer {
    /// Validated body, with an error for an unexpected empty body.
    public static var data: DataResponseSerializer { DataResponseSerializer() }
}

extension ResponseSerializing where Self == StringResponseSerializer {
    /// The body as text in the response's charset (ISO-8859-1 when it names none).
    public static var string: StringResponseSerializer { StringResponseSerializer() }

    /// The body as text in `encoding`, whatever the response declares.
    public static func string(encoding: String.Encoding) -> StringResponseSerializer {
        StringResponseSerializer(encoding: encoding)
    }
}

extension ResponseSerializing where Self == JSONResponseSerializer {
    /// A JSON value (AFNetworking's `AFJSONResponseSerializer`).
    public static var json: JSONResponseSerializer { JSONResponseSerializer() }

    /// A JSON value parsed with `readingOptions`, optionally without `null`s.
    public static func json(
        readingOptions: JSONSerialization.ReadingOptions = [],
        removesKeysWithNullValues: Bool = false
    ) -> JSONResponseSerializer {
        JSONResponseSerializer(readingOptions: readingOptions, removesKeysWithNullValues: removesKeysWithNullValues)
    }
}

extension ResponseSerializing {
    /// A `Decodable` value read by `decoder` (`JSONDecoder()` by default).
    public static func decodable<T: Decodable & Sendable>(
        of type: T.Type,
        decoder: any DataDecoder = JSONDecoder()
    ) -> DecodableResponseSerializer<T>
    where Self == DecodableResponseSerializer<T> {
        DecodableResponseSerializer(of: type, decoder: decoder)
    }
}

extension ResponseSerializing where Self == ResponseSerializerRegistry {
    /// JSON, text, and validated data for everything else, chosen by `Content-Type`.
    public static var registry: ResponseSerializerRegistry { .standard }
}

extension ResponseSerializing where Self == PropertyListResponseSerializer {
    /// A property list (AFNetworking's `AFPropertyListResponseSerializer`).
    public static var propertyList: PropertyListResponseSerializer { PropertyListResponseSerializer() }
}
