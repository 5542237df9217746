extension DataResponse {
    /// The body decoded into `type` by `decoder` (JSON by default), without validation: for a
    /// response whose serializer kept the body as it was, or whose body is wanted as a second
    /// type. An empty body (or none) is decoded as empty data.
    ///
    /// ```swift
    /// let response = try await manager.get("users", parameters: ["page": 2])
    /// let users = try response.decoded(as: [User].self)
    /// ```
    /// - Throws: the decoder's error.
    public func decoded<T: Decodable>(
        as type: T.Type = T.self,
        using decoder: any DataDecoder = JSONDecoder()
    ) throws -> T {
        try decoder.decode(type, from: data ?? Data())
    }
}
