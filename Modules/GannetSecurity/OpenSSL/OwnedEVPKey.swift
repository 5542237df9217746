internal import COpenSSL

/// Owns an OpenSSL `EVP_PKEY`, freed in `deinit`. Used only while loading a client identity.
final class OwnedEVPKey {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }
}
