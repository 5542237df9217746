internal import COpenSSL
import Foundation

/// Opens a PKCS#12 bundle: checks the password against the MAC first, so a wrong password is
/// told apart from a damaged file, then extracts the key, certificate and chain.
struct PKCS12Loader {
    let path: String
    let data: Data
    let password: String?

    func load(at date: Date) throws(ClientIdentityError) -> ClientIdentity {
        OpenSSLError.clearQueue()
        let bundle: OpaquePointer? = data.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, raw.count > 0 else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            return d2i_PKCS12(nil, &cursor, raw.count)
        }
        guard let bundle else {
            throw ClientIdentityError(
                .invalidFormat,
                "Not a PKCS#12 bundle",
                path: path,
                openSSLError: OpenSSLError.drain("d2i_PKCS12")
            )
        }
        defer { PKCS12_free(bundle) }
        let effectivePassword = try verifiedPassword(bundle)

        var key: OpaquePointer? = nil
        var leaf: OpaquePointer? = nil
        var extra: OpaquePointer? = nil
        let parsed = withOptionalCString(effectivePassword) { PKCS12_parse(bundle, $0, &key, &leaf, &extra) }
        let ownedKey = key.map(OwnedEVPKey.init(taking:))
        let ownedLeaf = leaf.map(OwnedX509.init(taking:))
        var chain: [OwnedX509] = []
        if let extra {
            chain = extra.retainedX509Members()
            copenssl_sk_X509_pop_free(extra)
        }
        guard parsed == 1 else {
            let error = OpenSSLError.drain("PKCS12_parse")
            throw ClientIdentityError(.invalidFormat, "Cannot open the PKCS#12 bundle", path: path, openSSLError: error)
        }
        guard let ownedLeaf else {
            throw ClientIdentityError(.missingCertificate, "The PKCS#12 bundle holds no certificate", path: path)
        }
        guard let ownedKey else {
            throw ClientIdentityError(.missingKey, "The PKCS#12 bundle holds no private key", path: path)
        }
        let certificate: Certificate
        let chainCertificates: [Certificate]
        do {
            certificate = try Certificate(x509: ownedLeaf)
            var converted: [Certificate] = []
            for x509 in chain { converted.append(try Certificate(x509: x509)) }
            chainCertificates = converted
        } catch {
            throw ClientIdentityError(.invalidFormat, error.message, path: path, openSSLError: error.openSSLError)
        }
        let identity = ClientIdentity(
            certificate: certificate,
            chain: chainCertificates,
            clientCertificate: SessionConfiguration.ClientCertificate(
                certificateFile: path,
                format: .pkcs12,
                password: password
            )
        )
        try identity.check(key: ownedKey, path: path, at: date)
        return identity
    }

    /// The password that opens the bundle's MAC. Without a password given, both "no password"
    /// and the empty password are tried, as `openssl pkcs12` does.
    private func verifiedPassword(_ bundle: OpaquePointer) throws(ClientIdentityError) -> String? {
        guard PKCS12_mac_present(bundle) == 1 else { return password }
        let candidates: [String?] = password.map { [$0] } ?? [nil, ""]
        for candidate in candidates {
            let ok = withOptionalCString(candidate) { PKCS12_verify_mac(bundle, $0, -1) }
            if ok == 1 { return candidate }
        }
        let error = OpenSSLError.drain("PKCS12_verify_mac")
        if password == nil {
            throw ClientIdentityError(
                .passwordRequired,
                "The PKCS#12 bundle is protected by a password and none was given",
                path: path,
                openSSLError: error
            )
        }
        throw ClientIdentityError(
            .wrongPassword,
            "The password does not open the PKCS#12 bundle",
            path: path,
            openSSLError: error
        )
    }

    private func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> T) -> T {
        guard let string else { return body(nil) }
        return string.withCString { body($0) }
    }
}
