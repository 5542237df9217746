/// The parameters a request serializer encodes: AFNetworking's `NSDictionary` of parameters,
/// made `Sendable`. Values are strings, numbers, booleans, `Date`, `Data`, `NSNull`, or
/// nested `[any Sendable]` and `[String: any Sendable]` containers.
///
/// ```swift
/// let parameters: Parameters = ["page": 2, "tags": ["swift", "linux"], "filter": ["state": "open"]]
/// ```
public typealias Parameters = [String: any Sendable]
