/// The HTTP checks every XML serializer makes before parsing: AFNetworking's
/// `AFHTTPResponseSerializer` validation (acceptable status codes and content types) and the
/// empty-body rules of `204`, `205`, `304` and `HEAD`.
///
/// `GannetResponseSerialization` will carry the shared version of these rules (`MediaType`,
/// `ResponseValidating`); until it does, the XML serializers validate with this one.
struct XMLResponseValidation: Sendable {
    var acceptableStatusCodes: IndexSet
    var acceptableContentTypes: Set<String>?
    var emptyResponseCodes: Set<Int>
    var emptyRequestMethods: Set<String>

    /// Rethrows a transport error, validates, and returns the body; `nil` when the body is
    /// empty and the status or method allows that.
    func validatedBody(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> Data? {
        if let error { throw error }
        try validate(response: response, data: data)
        guard let data, !data.isEmpty else {
            if let method = request?.httpMethod?.uppercased(), emptyRequestMethods.contains(method) { return nil }
            if let status = response?.statusCode, emptyResponseCodes.contains(status) { return nil }
            let status = response.map { " (\($0.statusCode))" } ?? ""
            throw XMLResponseSerializationError(
                .inputDataNilOrZeroLength, "Response\(status) has an empty body, but an XML document was expected",
                response: response, data: data)
        }
        return data
    }

    /// Checks the content type (only when there is a body) and the status; a status failure
    /// wins and carries a content-type failure as its underlying error.
    func validate(response: HTTPURLResponse?, data: Data?) throws {
        guard let response else { return }
        var failure: XMLResponseSerializationError?
        if let acceptableContentTypes, let data, !data.isEmpty {
            let header = response.value(forHTTPHeaderField: "Content-Type")
            let essence = header.map(Self.essence)
            if !(essence.map { Self.matches($0, acceptableContentTypes) } ?? false) {
                let shown = essence.map { BodyExcerpt.clip(BodyExcerpt.singleLine($0), toBytes: 200) } ?? "(none)"
                failure = XMLResponseSerializationError(
                    .unacceptableContentType, "Request failed: unacceptable content-type: \(shown)",
                    response: response, data: data)
            }
        }
        if !acceptableStatusCodes.contains(response.statusCode) {
            let reason = HTTPURLResponse.localizedString(forStatusCode: response.statusCode).lowercased()
            failure = XMLResponseSerializationError(
                .unacceptableStatusCode, "Request failed: \(reason) (\(response.statusCode))",
                response: response, data: data, underlyingError: failure)
        }
        if let failure { throw failure }
    }

    /// `type/subtype` of a `Content-Type` value, lowercased, parameters dropped.
    static func essence(_ header: String) -> String {
        let value = header.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return value.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// Whether `essence` is one of `patterns`: an exact `type/subtype`, `type/*`, or a
    /// structured-syntax suffix pattern such as `application/*+xml` (RFC 6839 §4.1).
    static func matches(_ essence: String, _ patterns: Set<String>) -> Bool {
        if patterns.contains(essence) { return true }
        guard let slash = essence.firstIndex(of: "/") else { return false }
        let type = essence[..<slash]
        if patterns.contains("\(type)/*") || patterns.contains("*/*") { return true }
        guard let plus = essence.lastIndex(of: "+") else { return false }
        return patterns.contains("\(type)/*\(essence[plus...])")
    }
}
