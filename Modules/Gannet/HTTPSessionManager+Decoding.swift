extension HTTPSessionManager {
    /// The serializer behind the `as:` methods.
    static func decodingSerializer<T: Decodable & Sendable>(for type: T.Type, decoder: JSONDecoder) -> some ResponseSerializing<T> {
        InterimDecodingSerializer<T>(decoder: decoder)
    }
}

/// Until GannetResponseSerialization lands: 2xx or an error, then JSONDecoder.
struct InterimDecodingSerializer<T: Decodable & Sendable>: ResponseSerializing {
    let decoder: JSONDecoder

    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> T {
        if let error { throw error }
        guard let status = response?.statusCode, (200..<300).contains(status) else {
            throw GannetError(.protocolViolation, "Unacceptable status code \(response?.statusCode ?? 0)")
        }
        return try decoder.decode(T.self, from: data ?? Data())
    }
}
