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
    /// The request is the serializer's (`consuming`): when the caller built it and holds no
    /// other copy, as `HTTPSessionManager` does, the serializer changes it in place; a borrowed
    /// `URLRequest` makes Foundation copy the whole request at the first change (7,000
    /// instructions, docs/performance.md). A conforming type may declare the parameter without
    /// `consuming`.
    ///
    /// - Throws: an error describing why the parameters or the request cannot be encoded;
    ///   nothing is sent when a serializer throws.
    func request(byEncoding parameters: Parameters?, into request: consuming URLRequest) throws -> URLRequest
}
