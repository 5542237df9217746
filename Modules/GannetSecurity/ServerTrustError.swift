public import Foundation

/// Why an evaluator refused a server, thrown from `ServerTrustEvaluating.evaluate(_:)` inside
/// the TLS handshake.
///
/// The engine fails the task with a `URLError` whose code is ``urlErrorCode`` (so code written
/// against URLSession keeps working) and keeps this error as the underlying one. ``message``
/// says what failed in one line; a pin failure lists the pins the server's verified chain
/// presented, which is how you find the pins to configure.
///
/// ```swift
/// catch let error as ServerTrustError where error.code == .pinMismatch {
///     print(error.presentedChain.map(\.description))   // ["sha256/… (CN=api.example.com)", …]
/// }
/// ```
public struct ServerTrustError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is; an open set so that adding one is not a breaking change.
    public struct Code: NamedErrorCode {
        /// A short identifier, stable across releases; also the code's `description`.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The server sent no certificate.
        public static let noCertificates = Code("noCertificates")
        /// A certificate the server sent is not parseable DER.
        public static let invalidCertificate = Code("invalidCertificate")
        /// The chain does not lead to a trusted anchor: unknown issuer, self-signed leaf,
        /// self-signed certificate in the chain.
        public static let untrustedRoot = Code("untrustedRoot")
        /// A certificate of the chain has expired.
        public static let expired = Code("expired")
        /// A certificate of the chain is not valid yet.
        public static let notYetValid = Code("notYetValid")
        /// Any other chain failure found by `X509_verify_cert`: a leaf used as an issuer, a path
        /// length exceeded, a bad signature, a certificate not meant for TLS servers…
        /// ``ServerTrustError/verifyResult`` holds OpenSSL's code and the message its text.
        public static let chainInvalid = Code("chainInvalid")
        /// The leaf is not valid for the host name or IP address that was requested.
        public static let hostMismatch = Code("hostMismatch")
        /// The chain is valid but none of the pinned certificates or keys is in it.
        public static let pinMismatch = Code("pinMismatch")
        /// Pinning is on but nothing is pinned, so nothing can match.
        public static let noPins = Code("noPins")
        /// A ``ServerTrustManager`` has no evaluator for the host and no default.
        public static let noEvaluator = Code("noEvaluator")
        /// The policy's settings contradict each other (AFNetworking: invalid certificates
        /// allowed with domain validation but without pinning).
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// A stapled OCSP response says the leaf is revoked.
        public static let revoked = Code("revoked")
        /// A stapled OCSP response cannot be relied on: unsigned by the issuer, stale, or
        /// silent about the leaf.
        public static let ocspResponseInvalid = Code("ocspResponseInvalid")
        /// An ``OCSPStaplingTrustEvaluator`` requires a stapled OCSP response and the server
        /// sent none.
        public static let ocspResponseMissing = Code("ocspResponseMissing")
        /// OpenSSL itself failed (out of memory); ``ServerTrustError/openSSLError`` has its report.
        public static let internalError = Code("internalError")
    }

    /// What kind of failure this is.
    public let code: Code
    /// One line saying what failed, for logs and error messages.
    public let message: String
    /// The host name or address that was evaluated.
    public let host: String
    /// OpenSSL's `X509_V_ERR_*` code when `X509_verify_cert` refused the chain.
    public let verifyResult: Int?
    /// The depth in the chain (0 is the leaf) of the certificate that failed verification.
    public let failingDepth: Int?
    /// The chain the decision was made on, leaf first: the verified chain when one was built
    /// (anchor included), otherwise what the server presented. A pin failure lists these pins.
    public let presentedChain: [Certificate]
    /// OpenSSL's own report, when a library call failed.
    public let openSSLError: OpenSSLError?

    init(
        _ code: Code,
        _ message: String,
        host: String,
        verifyResult: Int? = nil,
        failingDepth: Int? = nil,
        presentedChain: [Certificate] = [],
        openSSLError: OpenSSLError? = nil
    ) {
        self.code = code
        self.message = message
        self.host = host
        self.verifyResult = verifyResult
        self.failingDepth = failingDepth
        self.presentedChain = presentedChain
        self.openSSLError = openSSLError
    }

    /// The `URLError` code URLSession would report for this failure:
    /// `.serverCertificateHasBadDate` (expired), `.serverCertificateNotYetValid`,
    /// `.serverCertificateHasUnknownRoot` (untrusted root, self-signed), and
    /// `.serverCertificateUntrusted` for everything else.
    public var urlErrorCode: URLError.Code {
        switch code {
        case .expired: .serverCertificateHasBadDate
        case .notYetValid: .serverCertificateNotYetValid
        case .untrustedRoot: .serverCertificateHasUnknownRoot
        default: .serverCertificateUntrusted
        }
    }

    /// The pins of ``presentedChain`` in `sha256/…` form, leaf first.
    public var presentedPins: [PublicKeyPin] { presentedChain.map(\.publicKeyPin) }

    /// The message.
    public var description: String { message }
}

extension ServerTrustError: DescriptiveError {}

/// The engine reads ``ServerTrustError/urlErrorCode`` through this conformance, so a rejected
/// handshake fails with `.serverCertificateHasBadDate`, `.serverCertificateHasUnknownRoot`… as
/// URLSession would report it.
extension ServerTrustError: URLErrorCodeProviding {}
