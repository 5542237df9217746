extension HTTPSessionManager {
    /// The serializer behind the `as:` methods: GannetResponseSerialization's
    /// `DecodableResponseSerializer`, which validates the status code (2xx) and the JSON
    /// `Content-Type` before decoding, and decodes `Empty` from a 204; it also accepts
    /// `acceptingContentTypes` and `acceptingStatusCodes`.
    static func decodingSerializer<T: Decodable & Sendable>(
        for type: T.Type,
        decoder: any DataDecoder,
        acceptingContentTypes: Set<MediaType> = [],
        acceptingStatusCodes: IndexSet = []
    ) -> DecodableResponseSerializer<T> {
        DecodableResponseSerializer(of: type, decoder: decoder)
            .accepting(contentTypes: acceptingContentTypes)
            .accepting(statusCodes: acceptingStatusCodes)
    }
}
