internal import COpenSSL
import Foundation

/// SHA-256 through OpenSSL's EVP interface (the low-level `SHA256()` family is deprecated in 3.0).
enum SHA256 {
    static func hash(_ data: Data) -> Data {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = data.withUnsafeBytes { raw in
            EVP_Digest(raw.baseAddress, raw.count, &digest, &length, EVP_sha256(), nil)
        }
        // EVP_Digest with SHA-256 fails only when memory runs out; there is nothing to recover.
        precondition(ok == 1 && length == 32, "EVP_Digest(SHA-256) failed")
        return Data(digest.prefix(Int(length)))
    }
}
