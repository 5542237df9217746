/// Turns what the transport received into a value: validated data, a string, JSON, a
/// `Decodable`, an XML document.
///
/// A serializer runs on the session's concurrent processing queue, after the transfer ended,
/// never on the engine thread. A ``SessionManager`` runs it only for a transfer that succeeded
/// (as AFNetworking's task delegate): a transport error reaches the completion handler as it
/// is, so a serializer cannot turn it into a success, and `error` is then always `nil`. A
/// caller that runs a serializer itself may pass an error; Gannet's serializers rethrow it.
///
/// The core defines the protocol and ``PassthroughResponseSerializer``;
/// `GannetResponseSerialization` provides validation, JSON, `Decodable` and a registry that
/// picks a serializer by `Content-Type`.
public protocol ResponseSerializing<Output>: Sendable {
    /// The value a successful serialization produces.
    associatedtype Output: Sendable

    /// Produces the value for one response, or throws a typed error that keeps the response
    /// and the data.
    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> Output
}

/// The default response serializer of a ``SessionManager``: rethrows a transport error,
/// otherwise returns the body as received (empty `Data` when there was none). It performs no
/// validation; `GannetResponseSerialization`'s `HTTPResponseSerializer` does.
public struct PassthroughResponseSerializer: ResponseSerializing {
    /// Creates the serializer.
    public init() {}

    /// Returns `data`, or rethrows `error`.
    public func serialize(
        request: URLRequest?,
        response: HTTPURLResponse?,
        data: Data?,
        error: (any Error)?
    ) throws -> Data {
        if let error { throw error }
        return data ?? Data()
    }
}

extension ResponseSerializing where Self == PassthroughResponseSerializer {
    /// The body as received, without validation.
    public static var passthrough: PassthroughResponseSerializer { PassthroughResponseSerializer() }
}
