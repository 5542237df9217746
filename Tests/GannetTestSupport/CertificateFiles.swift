/// The files of one generated certificate: PEM, DER, its private key and, for a server leaf,
/// the chain nginx presents (leaf first, then the issuers it sends).
public struct CertificateFiles: Sendable, Hashable, Decodable {
    /// The certificate in PEM.
    public let pem: String
    /// The certificate in DER, as `ServerTrust.certificateChain` carries it.
    public let der: String
    /// The private key, PKCS#8 PEM, unencrypted.
    public let privateKey: String
    /// For server leaves: the chain file the server presents; `nil` for CA certificates.
    public let chain: String?

    private enum CodingKeys: String, CodingKey {
        case pem, der, chain
        case privateKey = "key"
    }
}
