internal import COpenSSL
public import Foundation

/// An X.509 certificate parsed by OpenSSL, with the facts a trust decision needs.
///
/// ```swift
/// let certificate = try Certificate(derEncoded: data)   // or Certificate(pemEncoded: text)
/// print(certificate.publicKeyPin)                      // "sha256/…=" — the pin to put in a PinSet
/// ```
///
/// Two certificates are equal when their DER encodings are identical.
public struct Certificate: Sendable, Hashable, CustomStringConvertible {
    /// The DER encoding.
    public let derEncoded: Data
    /// The subject distinguished name in RFC 2253 form, such as `CN=localhost,O=Gannet`.
    public let subject: String
    /// The issuer distinguished name in RFC 2253 form.
    public let issuer: String
    /// The subject's common name, when it has one.
    public let commonName: String?
    /// The SHA-256 of the DER `SubjectPublicKeyInfo` (RFC 7469 section 2.4).
    public let publicKeySHA256: Data
    /// Whether OpenSSL's verifier would accept this certificate as an issuer
    /// (`X509_check_ca`: basic constraints `CA:TRUE`, or a version 1 self-signed root).
    public let isCA: Bool
    /// Whether the subject and issuer names are the same (a root, or a self-signed leaf).
    public let isSelfIssued: Bool
    /// The start of the validity period.
    public let notBefore: Date
    /// The end of the validity period.
    public let notAfter: Date

    let x509: OwnedX509

    /// Parses one DER-encoded certificate. Bytes after the certificate are an error.
    public init(derEncoded der: Data) throws(CertificateError) {
        let x509: OwnedX509
        do {
            x509 = try OwnedX509(derEncoded: der)
        } catch {
            throw CertificateError(.invalidDER, "Not a DER certificate", openSSLError: error)
        }
        try self.init(x509: x509, der: der)
    }

    /// Parses the single PEM certificate in `pem`; use ``certificates(pemEncoded:)`` for a bundle.
    public init(pemEncoded pem: String) throws(CertificateError) {
        let all = try Certificate.certificates(pemEncoded: Data(pem.utf8))
        guard all.count == 1 else {
            throw CertificateError(.invalidPEM, "Expected one PEM certificate, found \(all.count)")
        }
        self = all[0]
    }

    /// Parses DER, or PEM when the data does not start like DER: what `.cer`, `.crt`
    /// and `.pem` files hold in practice. PEM data must hold exactly one certificate.
    public init(data: Data) throws(CertificateError) {
        if Certificate.looksLikePEM(data) {
            let all = try Certificate.certificates(pemEncoded: data)
            guard all.count == 1 else {
                throw CertificateError(.invalidPEM, "Expected one PEM certificate, found \(all.count)")
            }
            self = all[0]
        } else {
            try self.init(derEncoded: data)
        }
    }

    init(x509: OwnedX509, der: Data? = nil) throws(CertificateError) {
        do throws(OpenSSLError) {
            if let der { self.derEncoded = der } else { self.derEncoded = try x509.derEncoded() }
            self.publicKeySHA256 = SHA256.hash(try x509.subjectPublicKeyInfo())
        } catch {
            throw CertificateError(.invalidDER, "Certificate without a readable public key", openSSLError: error)
        }
        let subjectName = X509_get_subject_name(x509.pointer)
        let issuerName = X509_get_issuer_name(x509.pointer)
        self.subject = X509Name.rfc2253(subjectName)
        self.issuer = X509Name.rfc2253(issuerName)
        self.commonName = X509Name.commonName(subjectName)
        self.isCA = X509_check_ca(x509.pointer) != 0
        self.isSelfIssued = X509_NAME_cmp(subjectName, issuerName) == 0
        guard let notBefore = ASN1Time.date(X509_get0_notBefore(x509.pointer)),
            let notAfter = ASN1Time.date(X509_get0_notAfter(x509.pointer))
        else {
            throw CertificateError(.invalidDER, "Certificate with an unreadable validity period")
        }
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.x509 = x509
    }

    /// The pin of this certificate's public key in OkHttp's form, `sha256/` + base64.
    public var publicKeyPin: PublicKeyPin { PublicKeyPin(sha256: publicKeySHA256) }

    /// A short name for messages: `CN=…` when the subject has a common name, else the subject.
    public var subjectSummary: String {
        commonName.map { "CN=\($0)" } ?? subject
    }

    /// The pin and subject summary, as pin failures list them: `sha256/… (CN=localhost)`.
    public var description: String { "\(publicKeyPin) (\(subjectSummary))" }

    /// Equal when the DER encodings are identical.
    public static func == (lhs: Certificate, rhs: Certificate) -> Bool {
        lhs.derEncoded == rhs.derEncoded
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(derEncoded)
    }

    /// A DER certificate always starts with a SEQUENCE tag (0x30); PEM files start with text,
    /// sometimes with a preamble such as `Bag Attributes` before the `-----BEGIN` line.
    static func looksLikePEM(_ data: Data) -> Bool {
        data.first != 0x30
    }
}
