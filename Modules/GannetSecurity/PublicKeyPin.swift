public import Foundation

/// A public-key pin in OkHttp's form: `sha256/` followed by the base64 SHA-256 of the DER
/// `SubjectPublicKeyInfo` (the value HPKP used, RFC 7469 section 2.4).
///
/// ```swift
/// let pin = try PublicKeyPin("sha256/r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E=")
/// ```
///
/// The pin of a key stays the same when a certificate is renewed with the same key, which is why
/// pinning keys survives renewals that pinning certificates does not.
public struct PublicKeyPin: Sendable, Hashable, CustomStringConvertible {
    /// The 32-byte SHA-256 of the `SubjectPublicKeyInfo`.
    public let sha256: Data

    /// Creates a pin from a digest.
    public init(sha256: Data) {
        self.sha256 = sha256
    }

    /// Parses `sha256/BASE64`. Only SHA-256 pins are accepted: OkHttp's `sha1/` pins are
    /// refused rather than silently never matching.
    public init(_ text: String) throws(PinError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("sha256/") else {
            throw PinError("Pin must start with \"sha256/\": \(text)")
        }
        guard let digest = Data(base64Encoded: String(trimmed.dropFirst("sha256/".count))), digest.count == 32 else {
            throw PinError("Pin is not the base64 of a 32-byte SHA-256 digest: \(text)")
        }
        self.sha256 = digest
    }

    /// The pin of a certificate's public key.
    public init(certificate: Certificate) {
        self = certificate.publicKeyPin
    }

    /// `sha256/` + base64.
    public var description: String { "sha256/" + sha256.base64EncodedString() }
}

/// A pin or host pattern that cannot be used, reported when a pin set is built.
public struct PinError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the input.
    public let message: String
    init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
