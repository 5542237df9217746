/// A response serializer that validates the status code and the content type before it reads
/// the body: AFNetworking's `AFHTTPResponseSerializer`, whose subclasses every serializer was.
///
/// Conform a custom serializer to get ``validate(response:data:)`` for free:
///
/// ```swift
/// struct CSVSerializer: ResponseValidating {
///     var acceptableStatusCodes = IndexSet(integersIn: 200..<300)
///     var acceptableContentTypes: Set<MediaType>? = ["text/csv"]
///     func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> [[String]] {
///         if let error { throw error }
///         try validate(response: response, data: data)
///         return parseCSV(data ?? Data())
///     }
/// }
/// ```
///
/// A download task asks the same questions through `DownloadResponseValidating`, with the first
/// 64 KiB of the body as `data` (docs/core.md, "Downloads").
public protocol ResponseValidating: ResponseSerializing, DownloadResponseValidating {
    /// Status codes that count as success; 200–299 unless set otherwise.
    var acceptableStatusCodes: IndexSet { get set }
    /// Media types (or ranges such as `text/*`) the body may have; `nil` accepts any.
    /// Parameters such as `charset` are ignored when comparing.
    var acceptableContentTypes: Set<MediaType>? { get set }
}

extension ResponseValidating {
    /// Judges a download with ``validate(response:data:)``, `bodyPrefix` standing for the body.
    public func validateDownload(request: URLRequest?, response: HTTPURLResponse, bodyPrefix: Data) throws {
        try validate(response: response, data: bodyPrefix)
    }

    /// 200–299, AFNetworking's default.
    public static var defaultAcceptableStatusCodes: IndexSet { IndexSet(integersIn: 200..<300) }

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
    /// A `nil` response (no HTTP response at all) is not validated, as in AFNetworking.
    public func validate(response: HTTPURLResponse?, data: Data?) throws {
        try validate(view: response.map(ResponseView.init), data: data)
    }

    /// ``validate(response:data:)`` through a view of the response: the `HTTPURLResponse` is
    /// built only for an error that carries it.
    package func validate(view: ResponseView?, data: Data?) throws {
        guard let view else { return }
        var failure: ResponseSerializationError?
        if let acceptableContentTypes, let data, !data.isEmpty {
            let header = view.value(forHTTPHeaderField: "Content-Type")
            let mediaType = header.flatMap(MediaTypeParser.parseContentType)
            if !(mediaType.map(acceptableContentTypes.containsMatch(for:)) ?? false) {
                let shown =
                    mediaType?.essence
                    ?? header.map { BodyExcerpt.clip(BodyExcerpt.singleLine($0), toBytes: 200) }
                    ?? "(none)"
                failure = ResponseSerializationError(
                    .unacceptableContentType,
                    "Request failed: unacceptable content-type: \(shown)",
                    response: view.response,
                    data: data
                )
            }
        }
        let statusCode = view.statusCode
        if !acceptableStatusCodes.contains(statusCode) {
            let reason = HTTPURLResponse.localizedString(forStatusCode: statusCode).lowercased()
            failure = ResponseSerializationError(
                .unacceptableStatusCode,
                "Request failed: \(reason) (\(statusCode))",
                response: view.response,
                data: data,
                underlyingError: failure
            )
        }
        if let failure { throw failure }
    }
}
