/// A serializer that builds a `multipart/form-data` request: the parameters become form fields
/// first (AFNetworking's order, named as the query encoding names them: `user[name]`,
/// `tags[]`), then the parts the closure appends. A session manager can take it like any other
/// ``GannetCore/RequestSerializing``.
///
/// ```swift
/// let serializer = MultipartRequestSerializer { formData in
///     try formData.appendPart(fileURL: reportURL, name: "report")
/// }
/// let request = try serializer.request(method: "POST", urlString: "http://127.0.0.1:8080/upload",
///                                      parameters: ["year": 2024])
/// ```
///
/// The request gets `httpBodyStream` (a ``MultipartBodyStream``), `Content-Type:
/// multipart/form-data; boundary=…` and the exact `Content-Length`, replacing any the request
/// had. With no parameters and no parts the request is returned without a body, as
/// AFNetworking did.
public struct MultipartRequestSerializer: ConfigurableRequestSerializer {
    /// The options and default headers.
    public var configuration: RequestSerializerConfiguration
    /// Appends the parts that follow the parameters; called once for each request built.
    public var constructingBody: @Sendable (inout MultipartFormData) throws -> Void

    /// Creates a serializer.
    public init(
        configuration: RequestSerializerConfiguration = RequestSerializerConfiguration(),
        constructingBodyWith constructingBody: @escaping @Sendable (inout MultipartFormData) throws -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.constructingBody = constructingBody
    }

    /// Returns `request` with a multipart body of `parameters` and the closure's parts.
    ///
    /// - Throws: `GannetError(.invalidRequest)` for `GET` and `HEAD`, which cannot carry a
    ///   body; ``RequestSerializationError/Code/parameterEncodingFailed`` for a parameter with no
    ///   text form; whatever the closure throws.
    public func request(byEncoding parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
        try multipartRequest(request, parameters: parameters, constructingBody: constructingBody)
    }
}

extension ConfigurableRequestSerializer {
    /// Builds a `multipart/form-data` request (AFNetworking's
    /// `multipartFormRequestWithMethod:URLString:parameters:constructingBodyWithBlock:error:`):
    /// `parameters` become form fields first, then `block` appends parts.
    ///
    /// ```swift
    /// let request = try HTTPRequestSerializer().multipartFormRequest(
    ///     method: "POST", urlString: "http://127.0.0.1:8080/post", parameters: ["title": "Gannets"]
    /// ) { formData in
    ///     try formData.appendPart(fileURL: photoURL, name: "photo")
    /// }
    /// ```
    ///
    /// - Throws: see ``MultipartRequestSerializer/request(byEncoding:into:)``; `block`'s errors
    ///   (such as a file that cannot be read) as they are.
    public func multipartFormRequest(
        method: String,
        urlString: String,
        parameters: Parameters? = nil,
        constructingBodyWith block: (inout MultipartFormData) throws -> Void = { _ in }
    ) throws -> URLRequest {
        try multipartRequest(
            makeRequest(method: method, urlString: urlString),
            parameters: parameters,
            constructingBody: block
        )
    }

    func multipartRequest(
        _ request: URLRequest,
        parameters: Parameters?,
        constructingBody: (inout MultipartFormData) throws -> Void
    ) throws -> URLRequest {
        var request = try prepare(request)
        let method = (request.httpMethod ?? "GET").uppercased()
        if method == "GET" || method == "HEAD" {
            throw RequestValidation.invalidRequest("A \(method) request cannot carry a multipart body", request)
        }
        var formData = MultipartFormData()
        if let parameters {
            do {
                for pair in try QueryStringEncoder(configuration: configuration).pairs(from: parameters) {
                    try formData.appendPart(formData: formFieldData(pair.value), name: pair.field)
                }
            } catch let error as RequestSerializationError {
                throw error.withFailingRequest(request)
            }
        }
        try constructingBody(&formData)
        guard !formData.isEmpty else {
            try RequestValidation.validate(request)
            return request
        }
        request.httpBody = nil
        request.httpBodyStream = formData.makeInputStream()
        request.setValue(formData.contentType, forHTTPHeaderField: "Content-Type")
        request.setValue(String(formData.contentLength), forHTTPHeaderField: "Content-Length")
        try RequestValidation.validate(request)
        return request
    }

    /// A form field's bytes: `Data` as it is, `nil`/`NSNull` empty, text in the string encoding.
    private func formFieldData(_ value: QueryPair.Value) throws -> Data {
        switch value {
        case .null:
            return Data()
        case .data(let data):
            return data
        case .text(let text):
            guard let data = text.data(using: configuration.stringEncoding, allowLossyConversion: false) else {
                throw RequestSerializationError(
                    .parameterEncodingFailed,
                    "A form field contains characters that the string encoding \(configuration.stringEncoding) cannot represent"
                )
            }
            return data
        }
    }
}
