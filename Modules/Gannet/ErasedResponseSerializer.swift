/// Erases a serializer's output to `(any Sendable)?`, the `id responseObject` of
/// AFNetworking's handlers.
struct ErasedResponseSerializer: ResponseSerializing {
    let base: any ResponseSerializing

    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> (any Sendable)? {
        try base.serialize(request: request, response: response, data: data, error: error)
    }
}
