/// A certificate that could not be read or parsed.
public struct CertificateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong; an open set so that new cases are not breaking changes.
    public struct Code: NamedErrorCode {
        /// A short identifier, stable across releases; also the code's `description`.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The bytes are not one well-formed DER certificate (or have bytes after it).
        public static let invalidDER = Code("invalidDER")
        /// A PEM block could not be decoded as a certificate.
        public static let invalidPEM = Code("invalidPEM")
        /// The input holds no certificate at all.
        public static let noCertificates = Code("noCertificates")
        /// A file could not be read.
        public static let unreadableFile = Code("unreadableFile")
    }

    /// What went wrong.
    public let code: Code
    /// A one-line explanation.
    public let message: String
    /// The file involved, when the input came from one.
    public let path: String?
    /// OpenSSL's own report, when OpenSSL refused the input.
    public let openSSLError: OpenSSLError?

    init(_ code: Code, _ message: String, path: String? = nil, openSSLError: OpenSSLError? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.openSSLError = openSSLError
    }

    /// A one-line description for logs.
    public var description: String {
        var text = message
        if let path { text += " (\(path))" }
        if let openSSLError, !openSSLError.entries.isEmpty { text += ": \(openSSLError)" }
        return text
    }
}
