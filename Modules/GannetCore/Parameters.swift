/// The parameters a request serializer encodes: AFNetworking's `NSDictionary` of parameters,
/// made `Sendable`. Values are strings, numbers, booleans, `Date`, `Data`, `NSNull`, or
/// nested `[any Sendable]` and `[String: any Sendable]` containers.
///
/// ```swift
/// let parameters: Parameters = ["page": 2, "tags": ["swift", "linux"], "filter": ["state": "open"]]
/// ```
public typealias Parameters = [String: any Sendable]

extension Dictionary where Key == String, Value == any Sendable {
    /// The key under which ``jsonArray(_:)`` keeps its array. It holds NUL characters, which no
    /// form field, query name or JSON object key written by hand contains.
    static var topLevelArrayKey: String { "\u{0}gannet.top-level-array\u{0}" }

    /// Parameters that a JSON request serializer writes as a top-level JSON array
    /// (AFNetworking's `NSArray` parameters of `AFJSONRequestSerializer`), accepted wherever
    /// ``Parameters`` are: the serializer's `request(byEncoding:into:)`, and the verb methods
    /// of an `HTTPSessionManager` whose request serializer is JSON.
    ///
    /// ```swift
    /// manager.requestSerializer = JSONRequestSerializer()
    /// manager.POST("post", parameters: .jsonArray([1, "two", ["three": 3]]), success: nil, failure: nil)
    /// ```
    ///
    /// A query string or a form has no top-level array, so `HTTPRequestSerializer` refuses
    /// these parameters with a typed error (`parameterEncodingFailed`), as does
    /// `JSONRequestSerializer` for `GET`, `HEAD` and `DELETE`, whose parameters go in the query.
    public static func jsonArray(_ elements: [any Sendable]) -> Parameters {
        [topLevelArrayKey: elements]
    }

    /// The array of parameters made by ``jsonArray(_:)``, `nil` for ordinary parameters.
    public var topLevelArray: [any Sendable]? {
        guard count == 1, let elements = self[Self.topLevelArrayKey] else { return nil }
        return elements as? [any Sendable]
    }
}
