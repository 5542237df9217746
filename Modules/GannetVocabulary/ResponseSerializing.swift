/// Turns what the transport received into a value: validated data, a string, JSON, a
/// `Decodable`, an XML document.
///
/// One entry point, ``serialize(_:)``, takes a ``ResponseInput``: the request, the response,
/// the body and the transport error. A serializer runs on the session's concurrent processing
/// queue, after the transfer ended, never on the engine thread. A `SessionManager` runs it
/// only for a transfer that succeeded (as AFNetworking's task delegate): a transport error
/// reaches the completion handler as it is, so a serializer cannot turn it into a success.
///
/// A download task's body goes to a file, not through ``serialize(_:)``: the manager's
/// `SessionManager.responseSerializer` is asked ``validate(_:)`` instead, with the file and
/// its first 64 KiB, before the file is moved to its destination. The default accepts every
/// download; GannetResponseSerialization's `ResponseValidating` serializers check their
/// status codes and content types.
///
/// ```swift
/// struct LineCount: ResponseSerializing {
///     func serialize(_ input: ResponseInput) throws -> Int {
///         if let error = input.error { throw error }
///         return (input.data ?? Data()).split(separator: UInt8(ascii: "\n")).count
///     }
/// }
/// ```
///
/// This module defines the protocol and ``PassthroughResponseSerializer``;
/// `GannetResponseSerialization` provides validation, JSON, `Decodable` and a registry that
/// picks a serializer by `Content-Type`.
public protocol ResponseSerializing<Output>: Sendable {
    /// The value a successful serialization produces.
    associatedtype Output: Sendable

    /// Produces the value for one response, or throws a typed error that keeps the response
    /// and the data.
    func serialize(_ input: ResponseInput) throws -> Output

    /// Judges a response whose body went to a file (``ResponseInput/fileURL``, its first
    /// 64 KiB in ``ResponseInput/data``); a throw fails the download task with that error and
    /// deletes the file. The default accepts every response.
    func validate(_ input: ResponseInput) throws
}

extension ResponseSerializing {
    /// Accepts every download.
    public func validate(_ input: ResponseInput) throws {}

    /// ``serialize(_:)`` with the input's parts given one by one, AFNetworking's
    /// `responseObjectForResponse:data:error:`.
    public func serialize(
        request: URLRequest?,
        response: HTTPURLResponse?,
        data: Data?,
        error: (any Error)?
    ) throws -> Output {
        try serialize(ResponseInput(request: request, response: response, data: data, error: error))
    }
}

/// The default response serializer of a `SessionManager`: rethrows a transport error,
/// otherwise returns the body as received (empty `Data` when there was none). It performs no
/// validation; `GannetResponseSerialization`'s `HTTPResponseSerializer` does.
public struct PassthroughResponseSerializer: ResponseSerializing {
    /// Creates the serializer.
    public init() {}

    /// Returns the body, or rethrows the transport error.
    public func serialize(_ input: ResponseInput) throws -> Data {
        if let error = input.error { throw error }
        return Self.body(input.data)
    }

    /// What the serializer returns for a transfer that succeeded with `data`: the body, empty
    /// when there was none. The session's pipeline asks this directly (GannetCore's
    /// `SerializerStage`), without making an input.
    package static func body(_ data: Data?) -> Data {
        data ?? Data()
    }
}

extension ResponseSerializing where Self == PassthroughResponseSerializer {
    /// The body as received, without validation.
    public static var passthrough: PassthroughResponseSerializer { PassthroughResponseSerializer() }
}
