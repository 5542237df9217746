import Foundation
import Synchronization

/// Parsed certificates by DER encoding, shared by every evaluation in the process.
///
/// A server presents the same chain on every handshake, and OpenSSL 3.0 spends most of a
/// certificate's cost in `d2i_X509` (its public key goes through the provider decoders) and in
/// the facts ``Certificate`` computes. Reusing them by exact DER bytes makes an evaluation cost
/// a chain verification, not a re-parse. Sharing the parsed `X509` objects between threads is
/// how OpenSSL itself shares them between connections (see ``OwnedX509``).
enum CertificateCache {
    /// Bounded so that a stream of servers with distinct certificates cannot grow memory; when
    /// full the cache starts over, which costs only re-parsing.
    static let capacity = 512
    private static let entries = Mutex<[Data: Certificate]>([:])

    /// The certificate for `der`, parsed on first use.
    static func certificate(derEncoded der: Data) throws(CertificateError) -> Certificate {
        if let cached = entries.withLock({ $0[der] }) { return cached }
        let certificate = try Certificate(derEncoded: der)
        insert(certificate)
        return certificate
    }

    /// The certificate for an `X509` that OpenSSL handed back (a verified chain member):
    /// `i2d_X509` returns the encoding the object was parsed from, so the lookup is cheap.
    static func certificate(_ x509: OwnedX509) throws(CertificateError) -> Certificate {
        let der: Data
        do {
            der = try x509.derEncoded()
        } catch {
            throw CertificateError(.invalidDER, "Cannot encode a certificate of the chain", openSSLError: error)
        }
        if let cached = entries.withLock({ $0[der] }) { return cached }
        let certificate = try Certificate(x509: x509, der: der)
        insert(certificate)
        return certificate
    }

    private static func insert(_ certificate: Certificate) {
        entries.withLock {
            if $0.count >= capacity { $0.removeAll(keepingCapacity: true) }
            $0[certificate.derEncoded] = certificate
        }
    }
}
