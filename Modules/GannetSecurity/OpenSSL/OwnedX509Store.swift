internal import COpenSSL

/// Owns an OpenSSL `X509_STORE` of trust anchors, freed in `deinit`.
///
/// `@unchecked Sendable` because a store is filled once, before it is shared, and only read
/// afterwards; OpenSSL locks a store's internal cache for the lazy lookups of a hashed
/// directory, which is how `SSL_CTX` shares one store between concurrent handshakes.
final class OwnedX509Store: @unchecked Sendable {
    let pointer: OpaquePointer

    init() throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        guard let store = X509_STORE_new() else { throw OpenSSLError.drain("X509_STORE_new") }
        self.pointer = store
    }

    deinit {
        X509_STORE_free(pointer)
    }

    /// Adds OpenSSL's default locations: `SSL_CERT_FILE` / `SSL_CERT_DIR` when set, else the
    /// distribution bundle (`/usr/lib/ssl/cert.pem`, `/usr/lib/ssl/certs` on Debian).
    func addDefaultPaths() throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        guard X509_STORE_set_default_paths(pointer) == 1 else {
            throw OpenSSLError.drain("X509_STORE_set_default_paths")
        }
    }

    /// Loads every certificate of a PEM file and/or a hashed directory.
    func load(file: String?, directory: String?) throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        guard X509_STORE_load_locations(pointer, file, directory) == 1 else {
            throw OpenSSLError.drain("X509_STORE_load_locations")
        }
    }

    /// Adds one trust anchor; the store takes its own reference.
    func add(_ certificate: OwnedX509) throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        guard X509_STORE_add_cert(pointer, certificate.pointer) == 1 else {
            let error = OpenSSLError.drain("X509_STORE_add_cert")
            // Adding the same certificate twice is not an error for a set of anchors.
            if error.entries.allSatisfy({ $0.reason == X509_R_CERT_ALREADY_IN_HASH_TABLE }) { return }
            throw error
        }
    }
}
