internal import COpenSSL
public import Foundation

extension Certificate {
    /// Every certificate in PEM data (a CA bundle, a chain file), in file order. Blocks of other
    /// types (private keys, parameters) are skipped; text between blocks is ignored.
    ///
    /// - Throws: ``CertificateError`` with ``CertificateError/Code/noCertificates`` when there is
    ///   none, or ``CertificateError/Code/invalidPEM`` when a certificate block is malformed.
    public static func certificates(pemEncoded pem: Data) throws(CertificateError) -> [Certificate] {
        OpenSSLError.clearQueue()
        let result: Result<[OwnedX509], CertificateError> = pem.withUnsafeBytes { raw in
            guard raw.count > 0, raw.count <= Int(Int32.max),
                let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count))
            else {
                return .failure(CertificateError(.noCertificates, "No PEM certificate in empty input"))
            }
            defer { BIO_free(bio) }
            var parsed: [OwnedX509] = []
            while true {
                if let x509 = PEM_read_bio_X509(bio, nil, refusePassword, nil) {
                    parsed.append(OwnedX509(taking: x509))
                    continue
                }
                let error = OpenSSLError.drain("PEM_read_bio_X509")
                // Running out of input is how PEM reading ends; anything else is a bad block.
                if error.entries.allSatisfy({ $0.reason == PEM_R_NO_START_LINE }) { break }
                return .failure(CertificateError(.invalidPEM, "Malformed PEM certificate block", openSSLError: error))
            }
            return .success(parsed)
        }
        let x509s = try result.get()
        guard !x509s.isEmpty else {
            throw CertificateError(.noCertificates, "No PEM certificate found")
        }
        var certificates: [Certificate] = []
        for x509 in x509s {
            certificates.append(try Certificate(x509: x509))
        }
        return certificates
    }

    /// Every certificate in a file: a PEM bundle, or one DER certificate.
    public static func certificates(contentsOf url: URL) throws(CertificateError) -> [Certificate] {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CertificateError(
                .unreadableFile,
                "Cannot read certificate file: \(error.localizedDescription)",
                path: url.path
            )
        }
        do {
            if looksLikePEM(data) { return try certificates(pemEncoded: data) }
            return [try Certificate(derEncoded: data)]
        } catch {
            throw CertificateError(error.code, error.message, path: url.path, openSSLError: error.openSSLError)
        }
    }
}

/// A PEM password callback that never asks: without one, OpenSSL prompts on the terminal when a
/// block claims to be encrypted, which would hang a server process.
let refusePassword: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
    _,
    _,
    _,
    _ in
    -1
}
