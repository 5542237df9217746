/// Anything that decodes a `Decodable` value from bytes: `JSONDecoder`, `PropertyListDecoder`,
/// or an app's own (MessagePack, CBOR…).
///
/// ```swift
/// extension MessagePackDecoder: DataDecoder {}   // already has decode(_:from:)
/// let serializer = DecodableResponseSerializer<User>(decoder: MessagePackDecoder())
/// ```
public protocol DataDecoder: Sendable {
    /// Decodes a value of `type` from `data`.
    func decode<D: Decodable>(_ type: D.Type, from data: Data) throws -> D
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}
