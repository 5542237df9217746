/// Keeps underlying errors from quoting a hostile body at length. Foundation's
/// `JSONSerialization` on Linux puts a whole oversized number into `NSDebugDescription`
/// ("Number 999…9 is not representable in Swift."): 1 MB of digits became a 1 MB error.
struct BoundedError: Error, CustomStringConvertible, Sendable {
    /// The longest description an underlying error may keep unchanged.
    static let maximumDescriptionBytes = 1024

    /// The original error's type, such as `DecodingError`.
    let typeName: String
    /// The start of the original error's description.
    let description: String

    /// `error` itself when its description is short; otherwise an `NSError` of the same domain
    /// and code with a shortened debug description, or a ``BoundedError`` for other types.
    static func bounding(_ error: any Error) -> any Error {
        if error is BoundedError || error is ResponseSerializationError { return error }
        let text = String(describing: error)
        guard text.utf8.count > maximumDescriptionBytes else { return error }
        let clipped = BodyExcerpt.clip(BodyExcerpt.singleLine(text), toBytes: maximumDescriptionBytes)
        // Only a real NSError: every Swift error bridges to one, which would lose its type.
        if type(of: error) is NSError.Type {
            let nsError = error as NSError
            return NSError(
                domain: nsError.domain,
                code: nsError.code,
                userInfo: [
                    "NSDebugDescription": BodyExcerpt.clip(
                        BodyExcerpt.singleLine(nsError.userInfo["NSDebugDescription"] as? String ?? ""),
                        toBytes: BodyExcerpt.maximumReasonBytes
                    )
                ]
            )
        }
        return BoundedError(typeName: String(describing: type(of: error)), description: clipped)
    }

    /// A short reason for a message: an `NSError`'s debug description (where Foundation's JSON
    /// parser puts the detail), else the error's description.
    static func reason(of error: any Error) -> String {
        if type(of: error) is NSError.Type, let detail = (error as NSError).userInfo["NSDebugDescription"] as? String {
            return detail
        }
        if let decodingError = error as? DecodingError {
            return summary(of: decodingError)
        }
        return String(describing: error)
    }

    /// `DecodingError` as one line: what went wrong and where (`at user.address[0].zip`).
    static func summary(of error: DecodingError) -> String {
        let context: DecodingError.Context
        let what: String
        switch error {
        case .typeMismatch(let type, let errorContext):
            context = errorContext
            what = "type mismatch for \(type)"
        case .valueNotFound(let type, let errorContext):
            context = errorContext
            what = "no value for \(type)"
        case .keyNotFound(let key, let errorContext):
            context = errorContext
            what = "missing key '\(key.stringValue)'"
        case .dataCorrupted(let errorContext):
            context = errorContext
            what = "data corrupted"
        @unknown default:
            return String(describing: error)
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        let location = path.isEmpty ? "" : " at \(path.hasPrefix(".") ? String(path.dropFirst()) : path)"
        return "\(what)\(location): \(context.debugDescription)"
    }
}
