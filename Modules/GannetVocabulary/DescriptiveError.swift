/// What Gannet's error types share: a one-line `description` that is also their
/// `localizedDescription`, so `print(error)` and `error.localizedDescription` read the same.
///
/// `GannetError`, `RequestSerializationError`, `ResponseSerializationError`, `XMLError`,
/// `ServerTrustError` and `InsecureTransportError` conform; an app's own error can too:
///
/// ```swift
/// struct QuotaExceeded: DescriptiveError {
///     var description: String { "The daily quota is used up" }
/// }
/// ```
public protocol DescriptiveError: LocalizedError, CustomStringConvertible {}

extension DescriptiveError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

/// What the open code structs of Gannet's errors share (`GannetError.Code`,
/// `RequestSerializationError.Code`, `XMLError.Code`, `ServerTrustError.Code`,
/// `CertificateError.Code`, `ClientIdentityError.Code`): a short `name`, stable across
/// releases, that is also the code's `description`. Codes are static members of a struct, so
/// adding one is not a breaking change.
public protocol NamedErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// A short identifier, stable across releases.
    var name: String { get }
}

extension NamedErrorCode {
    /// The ``name``.
    public var description: String { name }
}
