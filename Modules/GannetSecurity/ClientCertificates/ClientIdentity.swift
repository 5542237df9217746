internal import COpenSSL
public import Foundation

/// A client certificate with its private key, loaded and checked before any request, for
/// servers that ask for mutual TLS.
///
/// libcurl reads the files itself during the handshake, and would report a wrong password or a
/// key that does not match the certificate only then, as a generic handshake failure. Loading
/// the identity first turns those into clear errors at configuration time:
///
/// ```swift
/// let identity = try ClientIdentity.pkcs12(file: "client.p12", password: password)
/// configuration.tls.clientCertificate = identity.clientCertificate
/// ```
public struct ClientIdentity: Sendable {
    /// The client certificate.
    public let certificate: Certificate
    /// Further certificates found with it (the issuing chain), leaf excluded.
    public let chain: [Certificate]
    /// The configuration value that makes the engine present this identity.
    public let clientCertificate: SessionConfiguration.ClientCertificate

    /// Loads and checks a PKCS#12 bundle (`.p12`, `.pfx`).
    public static func pkcs12(
        file path: String,
        password: String? = nil,
        at date: Date = Date()
    ) throws(ClientIdentityError) -> ClientIdentity {
        let data = try read(path)
        return try PKCS12Loader(path: path, data: data, password: password).load(at: date)
    }

    /// Loads and checks a PEM (or DER) certificate and a PEM private key. `keyFile` may be
    /// omitted when the key is in the certificate file; `password` decrypts an encrypted key.
    public static func pem(
        certificateFile: String,
        keyFile: String? = nil,
        password: String? = nil,
        at date: Date = Date()
    ) throws(ClientIdentityError) -> ClientIdentity {
        let certificateData = try read(certificateFile)
        let keyPath = keyFile ?? certificateFile
        let keyData = keyFile == nil ? certificateData : try read(keyPath)
        let certificates: [Certificate]
        do {
            certificates =
                Certificate.looksLikePEM(certificateData)
                ? try Certificate.certificates(pemEncoded: certificateData)
                : [try Certificate(derEncoded: certificateData)]
        } catch {
            let code: ClientIdentityError.Code = error.code == .noCertificates ? .missingCertificate : .invalidFormat
            throw ClientIdentityError(
                code,
                "Cannot read the client certificate: \(error.message)",
                path: certificateFile,
                openSSLError: error.openSSLError
            )
        }
        let key = try PEMKeyLoader(path: keyPath, data: keyData, password: password).load()
        let identity = ClientIdentity(
            certificate: certificates[0],
            chain: Array(certificates.dropFirst()),
            clientCertificate: SessionConfiguration.ClientCertificate(
                certificateFile: certificateFile,
                keyFile: keyFile,
                format: Certificate.looksLikePEM(certificateData) ? .pem : .der,
                password: password
            )
        )
        try identity.check(key: key, path: keyPath, at: date)
        return identity
    }

    /// Loads and checks what a `SessionConfiguration.ClientCertificate` points at.
    public static func validating(
        _ clientCertificate: SessionConfiguration.ClientCertificate,
        at date: Date = Date()
    ) throws(ClientIdentityError) -> ClientIdentity {
        switch clientCertificate.format {
        case .pkcs12:
            return try pkcs12(file: clientCertificate.certificateFile, password: clientCertificate.password, at: date)
        case .pem, .der:
            return try pem(
                certificateFile: clientCertificate.certificateFile,
                keyFile: clientCertificate.keyFile,
                password: clientCertificate.password,
                at: date
            )
        }
    }

    init(certificate: Certificate, chain: [Certificate], clientCertificate: SessionConfiguration.ClientCertificate) {
        self.certificate = certificate
        self.chain = chain
        self.clientCertificate = clientCertificate
    }

    /// The checks a server would otherwise make for us, later and less clearly.
    func check(key: OwnedEVPKey, path: String, at date: Date) throws(ClientIdentityError) {
        OpenSSLError.clearQueue()
        guard X509_check_private_key(certificate.x509.pointer, key.pointer) == 1 else {
            throw ClientIdentityError(
                .keyMismatch,
                "The private key does not belong to certificate \(certificate.subjectSummary)",
                path: path,
                openSSLError: OpenSSLError.drain("X509_check_private_key")
            )
        }
        if date > certificate.notAfter {
            throw ClientIdentityError(
                .expired,
                "Client certificate \(certificate.subjectSummary) expired on \(certificate.notAfter)",
                path: path
            )
        }
        if date < certificate.notBefore {
            throw ClientIdentityError(
                .notYetValid,
                "Client certificate \(certificate.subjectSummary) is not valid before \(certificate.notBefore)",
                path: path
            )
        }
        guard X509_check_purpose(certificate.x509.pointer, X509_PURPOSE_SSL_CLIENT, 0) == 1 else {
            throw ClientIdentityError(
                .notForClientAuthentication,
                "Certificate \(certificate.subjectSummary) does not allow TLS client authentication (extended key usage)",
                path: path
            )
        }
    }

    static func read(_ path: String) throws(ClientIdentityError) -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ClientIdentityError(.unreadableFile, "Cannot read file: \(error.localizedDescription)", path: path)
        }
    }
}
