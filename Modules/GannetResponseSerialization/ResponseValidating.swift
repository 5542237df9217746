/// A response serializer that validates the status code and the content type before it reads
/// the body: AFNetworking's `AFHTTPResponseSerializer`, whose subclasses every serializer was.
///
/// Conform a custom serializer to get ``validate(_:)`` for free:
///
/// ```swift
/// struct CSVSerializer: ResponseValidating {
///     var acceptableStatusCodes = IndexSet(integersIn: 200..<300)
///     var acceptableContentTypes: Set<MediaType>? = ["text/csv"]
///     func serialize(_ input: ResponseInput) throws -> [[String]] {
///         if let error = input.error { throw error }
///         try validate(input)
///         return parseCSV(input.data ?? Data())
///     }
/// }
/// ```
///
/// A download task asks the same question, ``validate(_:)``, with the first 64 KiB of the body
/// as the input's `data` (docs/core.md, "Downloads").
public protocol ResponseValidating: ResponseSerializing {
    /// Status codes that count as success; 200–299 unless set otherwise.
    var acceptableStatusCodes: IndexSet { get set }
    /// Media types (or ranges such as `text/*`) the body may have; `nil` accepts any.
    /// Parameters such as `charset` are ignored when comparing.
    var acceptableContentTypes: Set<MediaType>? { get set }
}

extension ResponseValidating {
    /// 200–299, AFNetworking's default.
    public static var defaultAcceptableStatusCodes: IndexSet { IndexSet(integersIn: 200..<300) }

    /// ``validate(_:)`` with the response and the body given one by one.
    public func validate(response: HTTPURLResponse?, data: Data?) throws {
        try validate(ResponseInput(response: response, data: data))
    }

    /// Throws when the response is unacceptable, with AFNetworking's `validateResponse:data:error:`
    /// semantics:
    ///
    /// 1. The content type is checked only when ``acceptableContentTypes`` is set and the body is
    ///    not empty: a 204, or any response without a body, never fails on its content type,
    ///    and a body without a `Content-Type` fails (AFNetworking's "no MIME type and no data"
    ///    rule, with the empty-data case that it let through without an error).
    /// 2. The status code is checked after the content type; when both fail, the status error is
    ///    thrown and the content-type error is its ``ResponseSerializationError/underlyingError``.
    ///
    /// A `nil` response (no HTTP response at all) is not validated, as in AFNetworking. The
    /// status and `Content-Type` are read from the parsed head; the `HTTPURLResponse` is built
    /// only for an error that carries it.
    public func validate(_ input: ResponseInput) throws {
        guard let statusCode = input.statusCode else { return }
        let data = input.data
        var failure: ResponseSerializationError?
        if let acceptableContentTypes, let data, !data.isEmpty {
            let mediaType = input.contentType
            if !(mediaType.map(acceptableContentTypes.containsMatch(for:)) ?? false) {
                let shown =
                    mediaType?.essence
                    ?? input.value(forHTTPHeaderField: "Content-Type").map {
                        BodyExcerpt.clip(BodyExcerpt.singleLine($0), toBytes: 200)
                    }
                    ?? "(none)"
                failure = ResponseSerializationError(
                    .unacceptableContentType,
                    "Request failed: unacceptable content-type: \(shown)",
                    response: input.response,
                    data: data
                )
            }
        }
        if !acceptableStatusCodes.contains(statusCode) {
            let reason = HTTPURLResponse.localizedString(forStatusCode: statusCode).lowercased()
            failure = ResponseSerializationError(
                .unacceptableStatusCode,
                "Request failed: \(reason) (\(statusCode))",
                response: input.response,
                data: data,
                underlyingError: failure
            )
        }
        if let failure { throw failure }
    }
}
