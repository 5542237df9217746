internal import COpenSSL
import Foundation

/// Reads the first private key of PEM data, decrypting it with a password when needed.
struct PEMKeyLoader {
    let path: String
    let data: Data
    let password: String?

    func load() throws(ClientIdentityError) -> OwnedEVPKey {
        let text = String(decoding: data, as: UTF8.self)
        guard text.contains("PRIVATE KEY-----") else {
            throw ClientIdentityError(.missingKey, "No PEM private key found", path: path)
        }
        // Decided from the PEM headers rather than from OpenSSL's error text, which differs
        // between key formats and OpenSSL versions.
        let encrypted =
            text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED")
        if encrypted, password == nil {
            throw ClientIdentityError(
                .passwordRequired,
                "The private key is encrypted and no password was given",
                path: path
            )
        }
        OpenSSLError.clearQueue()
        let key: OpaquePointer? = data.withUnsafeBytes { raw in
            guard raw.count <= Int(Int32.max), let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                return nil
            }
            defer { BIO_free(bio) }
            return withPasswordPointer { PEM_read_bio_PrivateKey(bio, nil, suppliedPassword, $0) }
        }
        guard let key else {
            let error = OpenSSLError.drain("PEM_read_bio_PrivateKey")
            if encrypted {
                throw ClientIdentityError(
                    .wrongPassword,
                    "The password does not decrypt the private key",
                    path: path,
                    openSSLError: error
                )
            }
            throw ClientIdentityError(.invalidFormat, "Cannot read the private key", path: path, openSSLError: error)
        }
        return OwnedEVPKey(taking: key)
    }

    /// Lends the password to OpenSSL as a C string for the duration of `body` only.
    private func withPasswordPointer<T>(_ body: (UnsafeMutableRawPointer?) -> T) -> T {
        guard let password else { return body(nil) }
        var bytes = Array(password.utf8CString)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        return bytes.withUnsafeMutableBytes { body($0.baseAddress) }
    }
}

/// OpenSSL's password callback: copies the C string lent through `userdata`, or refuses
/// (-1) when there is none, so OpenSSL never prompts on a terminal.
let suppliedPassword: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
    buffer,
    size,
    _,
    userdata in
    guard let buffer, let userdata, size > 0 else { return -1 }
    let password = userdata.assumingMemoryBound(to: CChar.self)
    let length = min(Int(strlen(password)), Int(size))
    buffer.update(from: password, count: length)
    return Int32(length)
}
