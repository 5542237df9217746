extension HTTPSessionManager {
    /// The serializer behind the `as:` methods: GannetResponseSerialization's
    /// `DecodableResponseSerializer`, which validates the status code (2xx) and the JSON
    /// `Content-Type` before decoding, and decodes `Empty` from a 204.
    static func decodingSerializer<T: Decodable & Sendable>(for type: T.Type, decoder: any DataDecoder) -> DecodableResponseSerializer<T> {
        DecodableResponseSerializer(of: type, decoder: decoder)
    }
}
