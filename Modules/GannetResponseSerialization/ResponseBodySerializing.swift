/// A validating serializer that needs a body, with Alamofire's rules for responses that
/// legitimately have none.
///
/// An empty (or missing) body is allowed when the status code is in ``emptyResponseCodes``
/// (204, 205, 304 by default) or the request method is in ``emptyRequestMethods`` (`HEAD`);
/// the serializer then returns its empty value (`Data()`, `""`, ``Empty``). Any other empty
/// body is a ``ResponseSerializationError/Code/inputDataNilOrZeroLength`` error, so a `200`
/// that lost its body is not mistaken for success.
///
/// A custom serializer gets the whole sequence from ``validatedBody(_:)``:
///
/// ```swift
/// func serialize(_ input: ResponseInput) throws -> Message? {
///     guard let body = try validatedBody(input) else {
///         return nil   // 204, HEAD…
///     }
///     return try Message(decoding: body)
/// }
/// ```
public protocol ResponseBodySerializing: ResponseValidating {
    /// Transforms the body before it is read; ``PassthroughPreprocessor`` by default.
    var dataPreprocessor: any DataPreprocessor { get set }
    /// Status codes whose response may have an empty body.
    var emptyResponseCodes: Set<Int> { get set }
    /// Request methods (uppercase) whose response may have an empty body.
    var emptyRequestMethods: Set<String> { get set }
}

extension ResponseBodySerializing {
    /// 204 No Content, 205 Reset Content and 304 Not Modified, which have no body by definition
    /// (RFC 9110 §15.3.5, §15.3.6, §15.4.5). A 304 must also be in
    /// ``ResponseValidating/acceptableStatusCodes`` to get this far.
    public static var defaultEmptyResponseCodes: Set<Int> { [204, 205, 304] }
    /// `HEAD`, whose response never has a body (RFC 9110 §9.3.2).
    public static var defaultEmptyRequestMethods: Set<String> { ["HEAD"] }

    /// Whether an empty body is expected for this request and response.
    public func emptyResponseAllowed(request: URLRequest?, response: HTTPURLResponse?) -> Bool {
        emptyResponseAllowed(method: request?.httpMethod, statusCode: response?.statusCode)
    }

    private func emptyResponseAllowed(method: String?, statusCode: Int?) -> Bool {
        if let method = method?.uppercased(), emptyRequestMethods.contains(method) { return true }
        if let statusCode, emptyResponseCodes.contains(statusCode) { return true }
        return false
    }

    /// ``validatedBody(_:)`` with the input's parts given one by one.
    public func validatedBody(
        request: URLRequest?,
        response: HTTPURLResponse?,
        data: Data?,
        error: (any Error)?
    ) throws -> Data? {
        try validatedBody(ResponseInput(request: request, response: response, data: data, error: error))
    }

    /// The shared first steps of a body serializer: rethrow a transport error (the most specific
    /// failure), validate the response, apply the empty-body rules, then preprocess.
    ///
    /// - Returns: the preprocessed body, or `nil` when the body is empty and that is allowed.
    /// - Throws: the transport error, a validation error, or
    ///   ``ResponseSerializationError/Code/inputDataNilOrZeroLength``.
    public func validatedBody(_ input: ResponseInput) throws -> Data? {
        if let error = input.error { throw error }
        try validate(input)
        guard let data = input.data, !data.isEmpty else {
            if emptyResponseAllowed(method: input.request?.httpMethod, statusCode: input.statusCode) { return nil }
            let status = input.statusCode.map { " (\($0))" } ?? ""
            throw ResponseSerializationError(
                .inputDataNilOrZeroLength,
                "Response\(status) has an empty body, but a body was expected",
                response: input.response,
                data: input.data
            )
        }
        return try dataPreprocessor.preprocess(data)
    }
}
