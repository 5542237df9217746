extension RequestSerializing where Self == HTTPRequestSerializer {
    /// Query string for `GET`, `HEAD`, `DELETE`; URL-encoded form body otherwise.
    public static var form: HTTPRequestSerializer { HTTPRequestSerializer() }
}

extension RequestSerializing where Self == JSONRequestSerializer {
    /// A JSON body written by `JSONSerialization`; query string for `GET`, `HEAD`, `DELETE`.
    public static var json: JSONRequestSerializer { JSONRequestSerializer() }

    /// A JSON body written with `options`.
    public static func json(options: JSONSerialization.WritingOptions) -> JSONRequestSerializer {
        JSONRequestSerializer(writingOptions: options)
    }
}

extension RequestSerializing where Self == EncodableRequestSerializer {
    /// `Parameters` as a JSON body written by `encoder`.
    public static func encodable(encoder: JSONEncoder = JSONEncoder()) -> EncodableRequestSerializer {
        EncodableRequestSerializer(encoder: encoder)
    }
}

extension RequestSerializing {
    /// `value` as a JSON body written by `encoder`; parameters go into the query string.
    public static func jsonBody<Value: Encodable & Sendable>(
        _ value: Value,
        encoder: JSONEncoder = JSONEncoder()
    ) -> Self
    where Self == JSONEncodableBody<Value> {
        JSONEncodableBody(value, encoder: encoder)
    }
}

extension RequestSerializing where Self == PropertyListRequestSerializer {
    /// A property-list body (XML); query string for `GET`, `HEAD`, `DELETE`.
    public static var propertyList: PropertyListRequestSerializer { PropertyListRequestSerializer() }
}
