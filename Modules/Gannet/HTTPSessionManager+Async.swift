extension HTTPSessionManager {
    /// Sends `method` to `urlString` (resolved against ``baseURL``) with `parameters` encoded by
    /// ``requestSerializer`` and returns what `serializer` made of the response. The other
    /// async methods are shorthands for this one.
    ///
    /// The ``GannetCore/DataResponse`` returned is the one completion handlers receive, of a
    /// task that succeeded (a failure throws): its `value` and `statusCode` are present, its
    /// `result` is `.success`.
    ///
    /// ```swift
    /// let response = try await manager.get("users", parameters: ["page": 2])
    /// print(response.statusCode ?? 0, response.headerValue("ETag") ?? "")
    /// let users = try response.decoded(as: [User].self)
    /// ```
    ///
    /// Cancelling the calling Swift task cancels the transfer: the call throws `URLError.cancelled`.
    ///
    /// `interceptor` adapts and retries this request after the manager's ``interceptor``
    /// (docs/interceptors.md).
    ///
    /// - Throws: the request-building errors of ``request(method:urlString:parameters:headers:)``
    ///   (nothing is sent), the transport `URLError`, or the serializer's error.
    public func response<Serializer: ResponseSerializing>(
        method: String,
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        serializer: Serializer,
        interceptor: (any RequestInterceptor)? = nil
    ) async throws -> DataResponse<Serializer.Output> {
        let request = try self.request(method: method, urlString: urlString, parameters: parameters, headers: headers)
        return try await response(for: request, serializer: serializer, interceptor: interceptor)
    }

    /// Sends a request that is already built and returns what `serializer` made of it;
    /// `interceptor` adapts and retries it after the manager's ``interceptor``.
    public func response<Serializer: ResponseSerializing>(
        for request: URLRequest,
        serializer: Serializer,
        interceptor: (any RequestInterceptor)? = nil
    ) async throws -> DataResponse<Serializer.Output> {
        try await session.response(for: request, serializer: serializer, interceptor: interceptor).succeeded()
    }

    /// `GET`, serialized by ``responseSerializer``.
    ///
    /// ```swift
    /// let response = try await manager.get("users", parameters: ["page": 2])
    /// print(response.statusCode ?? 0, response.value as Any)
    /// ```
    public func get(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil
    ) async throws -> DataResponse<(any Sendable)?> {
        try await response(
            method: "GET",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: AnyResponseSerializer(responseSerializer)
        )
    }

    /// `GET`, the body decoded into `type` by `decoder` (a `JSONDecoder` by default) after the
    /// status code (2xx) and, for JSON, the `Content-Type` are validated (GannetResponseSerialization's
    /// `DecodableResponseSerializer`). Declare `Empty` as the type for responses without a body.
    ///
    /// ```swift
    /// let users = try await manager.get("users", as: [User].self)
    /// // an API that serves JSON as text/html, and a 404 whose JSON body is wanted:
    /// let legacy = try await manager.get("legacy/users", as: [User].self, acceptingContentTypes: [.html])
    /// let missing = try await manager.get("users/9", as: Problem.self, acceptingStatusCodes: [404])
    /// ```
    ///
    /// `acceptingContentTypes` and `acceptingStatusCodes` are accepted on top of the
    /// serializer's defaults (a non-JSON `decoder` already accepts any content type). For full
    /// control pass a serializer: ``get(_:parameters:headers:serializer:)``.
    public func get<T: Decodable & Sendable>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        as type: T.Type,
        decoder: any DataDecoder = JSONDecoder(),
        acceptingContentTypes: Set<MediaType> = [],
        acceptingStatusCodes: IndexSet = []
    ) async throws -> T {
        try await response(
            method: "GET",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: Self.decodingSerializer(
                for: type,
                decoder: decoder,
                acceptingContentTypes: acceptingContentTypes,
                acceptingStatusCodes: acceptingStatusCodes
            )
        ).result.get()
    }

    /// `GET`, serialized by `serializer` instead of ``responseSerializer``: any serializer,
    /// with its own validation settings.
    ///
    /// ```swift
    /// let user = try await manager.get("users/1", serializer: .decodable(of: User.self)).result.get()
    /// let page = try await manager.get("html", serializer: StringResponseSerializer().accepting(statusCodes: [404]))
    /// ```
    public func get<Serializer: ResponseSerializing>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        serializer: Serializer
    ) async throws -> DataResponse<Serializer.Output> {
        try await response(method: "GET", urlString, parameters: parameters, headers: headers, serializer: serializer)
    }

    /// `POST`, serialized by `serializer` (see ``get(_:parameters:headers:serializer:)``).
    @discardableResult
    public func post<Serializer: ResponseSerializing>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        serializer: Serializer
    ) async throws -> DataResponse<Serializer.Output> {
        try await response(method: "POST", urlString, parameters: parameters, headers: headers, serializer: serializer)
    }

    /// `PUT`, serialized by `serializer` (see ``get(_:parameters:headers:serializer:)``).
    @discardableResult
    public func put<Serializer: ResponseSerializing>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        serializer: Serializer
    ) async throws -> DataResponse<Serializer.Output> {
        try await response(method: "PUT", urlString, parameters: parameters, headers: headers, serializer: serializer)
    }

    /// `PATCH`, serialized by `serializer` (see ``get(_:parameters:headers:serializer:)``).
    @discardableResult
    public func patch<Serializer: ResponseSerializing>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        serializer: Serializer
    ) async throws -> DataResponse<Serializer.Output> {
        try await response(method: "PATCH", urlString, parameters: parameters, headers: headers, serializer: serializer)
    }

    /// `DELETE`, serialized by `serializer` (see ``get(_:parameters:headers:serializer:)``).
    @discardableResult
    public func delete<Serializer: ResponseSerializing>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        serializer: Serializer
    ) async throws -> DataResponse<Serializer.Output> {
        try await response(
            method: "DELETE",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: serializer
        )
    }

    /// `HEAD`; the response's headers are in `DataResponse.headerFields`.
    public func head(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil
    ) async throws -> DataResponse<(any Sendable)?> {
        try await response(
            method: "HEAD",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: AnyResponseSerializer(responseSerializer)
        )
    }

    /// `POST`, serialized by ``responseSerializer``.
    @discardableResult
    public func post(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil
    ) async throws -> DataResponse<(any Sendable)?> {
        try await response(
            method: "POST",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: AnyResponseSerializer(responseSerializer)
        )
    }

    /// `POST`, the body decoded into `type` (see ``get(_:parameters:headers:as:decoder:acceptingContentTypes:acceptingStatusCodes:)``).
    public func post<T: Decodable & Sendable>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        as type: T.Type,
        decoder: any DataDecoder = JSONDecoder(),
        acceptingContentTypes: Set<MediaType> = [],
        acceptingStatusCodes: IndexSet = []
    ) async throws -> T {
        try await response(
            method: "POST",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: Self.decodingSerializer(
                for: type,
                decoder: decoder,
                acceptingContentTypes: acceptingContentTypes,
                acceptingStatusCodes: acceptingStatusCodes
            )
        ).result.get()
    }

    /// `POST` with a streamed `multipart/form-data` body (see
    /// ``POST(_:parameters:headers:constructingBodyWith:progress:success:failure:)``).
    @discardableResult
    public func post(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        constructingBodyWith block: (inout MultipartFormData) throws -> Void
    ) async throws -> DataResponse<(any Sendable)?> {
        let request = try multipartRequest(
            urlString: urlString,
            parameters: parameters,
            headers: headers,
            constructingBodyWith: block
        )
        return try await response(for: request, serializer: AnyResponseSerializer(responseSerializer))
    }

    /// `PUT`, serialized by ``responseSerializer``.
    @discardableResult
    public func put(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil
    ) async throws -> DataResponse<(any Sendable)?> {
        try await response(
            method: "PUT",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: AnyResponseSerializer(responseSerializer)
        )
    }

    /// `PUT`, the body decoded into `type` (see ``get(_:parameters:headers:as:decoder:acceptingContentTypes:acceptingStatusCodes:)``).
    public func put<T: Decodable & Sendable>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        as type: T.Type,
        decoder: any DataDecoder = JSONDecoder(),
        acceptingContentTypes: Set<MediaType> = [],
        acceptingStatusCodes: IndexSet = []
    ) async throws -> T {
        try await response(
            method: "PUT",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: Self.decodingSerializer(
                for: type,
                decoder: decoder,
                acceptingContentTypes: acceptingContentTypes,
                acceptingStatusCodes: acceptingStatusCodes
            )
        ).result.get()
    }

    /// `PATCH`, serialized by ``responseSerializer``.
    @discardableResult
    public func patch(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil
    ) async throws -> DataResponse<(any Sendable)?> {
        try await response(
            method: "PATCH",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: AnyResponseSerializer(responseSerializer)
        )
    }

    /// `PATCH`, the body decoded into `type` (see ``get(_:parameters:headers:as:decoder:acceptingContentTypes:acceptingStatusCodes:)``).
    public func patch<T: Decodable & Sendable>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        as type: T.Type,
        decoder: any DataDecoder = JSONDecoder(),
        acceptingContentTypes: Set<MediaType> = [],
        acceptingStatusCodes: IndexSet = []
    ) async throws -> T {
        try await response(
            method: "PATCH",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: Self.decodingSerializer(
                for: type,
                decoder: decoder,
                acceptingContentTypes: acceptingContentTypes,
                acceptingStatusCodes: acceptingStatusCodes
            )
        ).result.get()
    }

    /// `DELETE`, serialized by ``responseSerializer``.
    @discardableResult
    public func delete(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil
    ) async throws -> DataResponse<(any Sendable)?> {
        try await response(
            method: "DELETE",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: AnyResponseSerializer(responseSerializer)
        )
    }

    /// `DELETE`, the body decoded into `type` (see ``get(_:parameters:headers:as:decoder:acceptingContentTypes:acceptingStatusCodes:)``).
    public func delete<T: Decodable & Sendable>(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        as type: T.Type,
        decoder: any DataDecoder = JSONDecoder(),
        acceptingContentTypes: Set<MediaType> = [],
        acceptingStatusCodes: IndexSet = []
    ) async throws -> T {
        try await response(
            method: "DELETE",
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: Self.decodingSerializer(
                for: type,
                decoder: decoder,
                acceptingContentTypes: acceptingContentTypes,
                acceptingStatusCodes: acceptingStatusCodes
            )
        ).result.get()
    }
}
