/// A client certificate or key that cannot be used, found before any request is made.
public struct ClientIdentityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong; an open set so that new cases are not breaking changes.
    public struct Code: NamedErrorCode {
        /// A short identifier, stable across releases; also the code's `description`.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// A file could not be read.
        public static let unreadableFile = Code("unreadableFile")
        /// The file is not PKCS#12, PEM or DER as announced, or uses an algorithm OpenSSL
        /// no longer enables by default (RC2 and 3DES PKCS#12 need the legacy provider).
        public static let invalidFormat = Code("invalidFormat")
        /// The key or bundle is encrypted and no password was given.
        public static let passwordRequired = Code("passwordRequired")
        /// The password does not decrypt the key or bundle.
        public static let wrongPassword = Code("wrongPassword")
        /// No certificate was found.
        public static let missingCertificate = Code("missingCertificate")
        /// No private key was found.
        public static let missingKey = Code("missingKey")
        /// The private key does not belong to the certificate.
        public static let keyMismatch = Code("keyMismatch")
        /// The certificate has expired; servers would refuse it.
        public static let expired = Code("expired")
        /// The certificate is not valid yet; servers would refuse it.
        public static let notYetValid = Code("notYetValid")
        /// The certificate's extended key usage does not allow TLS client authentication.
        public static let notForClientAuthentication = Code("notForClientAuthentication")
    }

    /// What is wrong.
    public let code: Code
    /// A one-line explanation (never containing the password).
    public let message: String
    /// The file involved.
    public let path: String
    /// OpenSSL's own report, when OpenSSL refused the input.
    public let openSSLError: OpenSSLError?

    init(_ code: Code, _ message: String, path: String, openSSLError: OpenSSLError? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.openSSLError = openSSLError
    }

    /// A one-line description for logs.
    public var description: String {
        var text = "\(message) (\(path))"
        if let openSSLError, !openSSLError.entries.isEmpty { text += ": \(openSSLError)" }
        return text
    }
}
