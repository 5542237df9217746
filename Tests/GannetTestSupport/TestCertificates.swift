public import GannetCore

/// The certificate set generated for this test run, as file paths (see Tests/Servers/README.md).
///
/// ```
/// root CA ── intermediate CA (pathlen:0) ── good, wrongHost, expired, notYetValid, ipAddress, wildcard, rsa, revoked
///        │                              └── path-length CA ── pathLengthExceeded
///        └── leaf signer (not a CA) ── leafAsIssuer
/// untrusted root ── untrustedRoot        selfSigned        client CA ── client
/// ```
public struct TestCertificates: Sendable {
    /// The test root CA, PEM: trust it to make the good chain valid.
    public let rootCA: String
    /// The test root CA, DER.
    public let rootCADER: String
    /// The intermediate CA (signed by the root), PEM.
    public let intermediateCA: String
    /// The intermediate CA, DER.
    public let intermediateCADER: String
    /// A PEM bundle holding the test root CA only; use it as `SessionConfiguration.tls.caFile`.
    public let caBundle: String
    /// A second root that nothing trusts, PEM; it issued the ``TLSVariant/untrustedRoot`` leaf.
    public let untrustedRootCA: String
    /// The untrusted root, DER.
    public let untrustedRootCADER: String
    /// The CA that nginx's mutual-TLS endpoint accepts client certificates from, PEM.
    public let clientCA: String
    /// The client certificate (signed by ``clientCA``), PEM.
    public let clientCertificate: String
    /// The client certificate, DER.
    public let clientCertificateDER: String
    /// The client's private key, PKCS#8 PEM, unencrypted.
    public let clientKey: String
    /// The client certificate, key and client CA in PKCS#12, encrypted with ``clientPKCS12Password``.
    public let clientPKCS12: String
    /// The password of ``clientPKCS12``: `"gannet"`.
    public let clientPKCS12Password: String
    /// Every certificate of the set by its name in the supervisor's JSON (`rootCA`, `leafSigner`,
    /// `pathLengthCA` …), for tests that need a file not given its own property.
    public let all: [String: CertificateFiles]
    let leaves: [TLSVariant: CertificateFiles]

    /// The certificate the TLS endpoint for `variant` serves (``TLSVariant/mutualTLS`` serves the good leaf).
    public func leaf(_ variant: TLSVariant) -> CertificateFiles {
        // Every variant is present: TestServers refuses a manifest that lacks one.
        leaves[variant]!
    }

    /// The DER OCSP response the endpoint for `variant` staples, or `nil` for an endpoint that
    /// staples nothing. The supervisor writes it beside the leaf as `NAME.ocsp.der`.
    public func stapledOCSPResponse(_ variant: TLSVariant) -> String? {
        let der = leaf(variant).der
        guard variant.staplesOCSPResponse, der.hasSuffix(".der") else { return nil }
        return String(der.dropLast(".der".count)) + ".ocsp.der"
    }

    /// The client certificate and key as PEM files, ready for `SessionConfiguration.tls.clientCertificate`.
    public var pemClientCertificate: SessionConfiguration.ClientCertificate {
        .init(certificateFile: clientCertificate, keyFile: clientKey, format: .pem)
    }

    /// The client identity as the PKCS#12 bundle with its password.
    public var pkcs12ClientCertificate: SessionConfiguration.ClientCertificate {
        .init(certificateFile: clientPKCS12, format: .pkcs12, password: clientPKCS12Password)
    }
}
