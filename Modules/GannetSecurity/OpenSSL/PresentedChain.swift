import Foundation

/// The server's certificates parsed into OpenSSL objects, leaf first, for one evaluation.
struct PresentedChain {
    static let maximumLength = 32
    let host: String
    let leaf: Certificate
    let intermediates: [Certificate]

    /// Parses a ``ServerTrust``; an empty or unparseable chain is refused before any
    /// verification, so a malformed handshake can never reach a pin comparison.
    init(_ trust: ServerTrust) throws(ServerTrustError) {
        host = trust.host
        guard !trust.certificateChain.isEmpty else {
            throw ServerTrustError(.noCertificates, "Server \(trust.host) presented no certificate", host: trust.host)
        }
        // OpenSSL verifies at most 100 levels, and real servers send two to four certificates;
        // refusing long lists early bounds the parsing a hostile server can cause.
        guard trust.certificateChain.count <= PresentedChain.maximumLength else {
            throw ServerTrustError(
                .chainInvalid,
                "Server \(trust.host) presented \(trust.certificateChain.count) certificates; at most \(PresentedChain.maximumLength) are accepted",
                host: trust.host
            )
        }
        var parsed: [Certificate] = []
        for (index, der) in trust.certificateChain.enumerated() {
            do {
                parsed.append(try CertificateCache.certificate(derEncoded: der))
            } catch {
                throw ServerTrustError(
                    .invalidCertificate,
                    "Certificate \(index) presented by \(trust.host) is not valid DER: \(error)",
                    host: trust.host,
                    failingDepth: index,
                    openSSLError: error.openSSLError
                )
            }
        }
        leaf = parsed[0]
        intermediates = Array(parsed.dropFirst())
    }

    /// The presented certificates as they came, for messages when no chain could be built.
    func certificates() -> [Certificate] {
        [leaf] + intermediates
    }
}
