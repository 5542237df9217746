internal import COpenSSL
import Foundation

/// Owns one reference to an OpenSSL `X509` and drops it in `deinit`.
///
/// `@unchecked Sendable` because Gannet never mutates an `X509` after parsing it, and OpenSSL
/// (1.1 and later) guards its lazily computed caches (extension flags, hashes) with the
/// certificate's own lock, so concurrent read-only use from several threads is safe; `SSL_CTX`
/// shares certificates across connections the same way.
final class OwnedX509: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Takes ownership of a reference the caller already holds (from `d2i_X509`, for example).
    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// Adds a reference to a certificate owned elsewhere, such as a member of a verified chain.
    init(retaining pointer: OpaquePointer) {
        X509_up_ref(pointer)
        self.pointer = pointer
    }

    deinit {
        X509_free(pointer)
    }

    /// Parses exactly one DER certificate; trailing bytes are an error, so that two inputs that
    /// differ only after the certificate never compare as the same pinned certificate.
    convenience init(derEncoded der: Data) throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw -> OpaquePointer? in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, raw.count > 0 else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            guard let x509 = d2i_X509(nil, &cursor, raw.count) else { return nil }
            if cursor != base + raw.count {
                X509_free(x509)
                return nil
            }
            return x509
        }
        guard let parsed else {
            let error = OpenSSLError.drain("d2i_X509")
            if error.entries.isEmpty, !der.isEmpty {
                throw OpenSSLError(
                    operation: "d2i_X509",
                    entries: [
                        .init(code: 0, message: "trailing data after the certificate")
                    ]
                )
            }
            throw error
        }
        self.init(taking: parsed)
    }

    /// The certificate's DER encoding.
    func derEncoded() throws(OpenSSLError) -> Data {
        try encode("i2d_X509") { i2d_X509(pointer, $0) }
    }

    /// The DER `SubjectPublicKeyInfo` exactly as the certificate carries it: the input of an
    /// HPKP / OkHttp `sha256/` pin (RFC 7469 section 2.4).
    func subjectPublicKeyInfo() throws(OpenSSLError) -> Data {
        guard let key = X509_get_X509_PUBKEY(pointer) else {
            throw OpenSSLError.drain("X509_get_X509_PUBKEY")
        }
        return try encode("i2d_X509_PUBKEY") { i2d_X509_PUBKEY(key, $0) }
    }

    /// Runs an OpenSSL `i2d_*` function that allocates its output, and copies the bytes out.
    private func encode(
        _ operation: String,
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>) -> Int32
    ) throws(OpenSSLError) -> Data {
        OpenSSLError.clearQueue()
        var output: UnsafeMutablePointer<UInt8>? = nil
        let length = body(&output)
        guard length > 0, let output else { throw OpenSSLError.drain(operation) }
        defer { copenssl_free(output) }
        return Data(bytes: output, count: Int(length))
    }
}
