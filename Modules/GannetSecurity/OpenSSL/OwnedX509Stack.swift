internal import COpenSSL

/// Owns a `STACK_OF(X509)` together with one reference to each member, freed in `deinit`.
///
/// Used only inside one evaluation on one thread, so it is deliberately not `Sendable`.
final class OwnedX509Stack {
    let pointer: OpaquePointer

    init() throws(OpenSSLError) {
        OpenSSLError.clearQueue()
        guard let stack = copenssl_sk_X509_new_null() else { throw OpenSSLError.drain("sk_X509_new_null") }
        self.pointer = stack
    }

    deinit {
        copenssl_sk_X509_pop_free(pointer)
    }

    /// Appends a certificate; the stack takes its own reference.
    func append(_ certificate: OwnedX509) throws(OpenSSLError) {
        X509_up_ref(certificate.pointer)
        if copenssl_sk_X509_push(pointer, certificate.pointer) <= 0 {
            X509_free(certificate.pointer)
            throw OpenSSLError.drain("sk_X509_push")
        }
    }
}

extension OpaquePointer {
    /// The members of a `STACK_OF(X509)` that someone else owns, each retained for the caller.
    func retainedX509Members() -> [OwnedX509] {
        let count = copenssl_sk_X509_num(self)
        guard count > 0 else { return [] }
        return (0..<count).compactMap { index in
            copenssl_sk_X509_value(self, index).map { OwnedX509(retaining: $0) }
        }
    }
}
