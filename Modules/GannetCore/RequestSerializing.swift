/// Turns parameters into a request: a query string, a form or JSON body, a multipart stream.
///
/// The core defines the protocol; `GannetRequestSerialization` provides AFNetworking's
/// serializers, and an app may conform a type of its own.
///
/// ```swift
/// struct MessagePackRequestSerializer: RequestSerializing {
///     func request(byEncoding parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
///         var request = request
///         request.httpBody = try MessagePack.encode(parameters ?? [:])
///         request.setValue("application/msgpack", forHTTPHeaderField: "Content-Type")
///         return request
///     }
/// }
/// ```
///
/// Such a serializer runs requests through a ``SessionManager``. An `HTTPSessionManager` holds
/// a `ConfigurableRequestSerializer` (GannetRequestSerialization), which also keeps the default
/// headers and options that `manager.requestSerializer.setValue(_:forHTTPHeaderField:)` changes
/// (docs/request-serialization.md).
public protocol RequestSerializing: Sendable {
    /// Returns `request` with `parameters` encoded into it.
    ///
    /// - Throws: an error describing why the parameters or the request cannot be encoded;
    ///   nothing is sent when a serializer throws.
    func request(byEncoding parameters: Parameters?, into request: URLRequest) throws -> URLRequest
}
