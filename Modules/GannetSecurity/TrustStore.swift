import Foundation

/// The trust anchors a chain is verified against: the system's CA store, a CA bundle you
/// ship, or explicit certificates.
///
/// ```swift
/// let store = try TrustStore.caFile("/etc/my-company/ca.pem")
/// let evaluator = DefaultTrustEvaluator(trustStore: store)
/// ```
///
/// A store is loaded once, when it is created, and shared by every evaluation that uses it.
public struct TrustStore: Sendable, Hashable, CustomStringConvertible {
    private enum Source: Hashable {
        case system
        case file(String)
        case directory(String)
        case certificates(Set<Certificate>)
    }

    private let source: Source
    let anchors: OwnedX509Store

    private init(source: Source, anchors: OwnedX509Store) {
        self.source = source
        self.anchors = anchors
    }

    /// OpenSSL's default locations: `SSL_CERT_FILE` and `SSL_CERT_DIR` when set, otherwise the
    /// distribution's CA bundle (`/etc/ssl/certs/ca-certificates.crt` on Debian and Ubuntu).
    public static let system: TrustStore = {
        do {
            let store = try OwnedX509Store()
            try store.addDefaultPaths()
            return TrustStore(source: .system, anchors: store)
        } catch {
            // Only allocation failures reach here; missing default files are not errors.
            fatalError("Cannot create the system trust store: \(error)")
        }
    }()

    /// The CA certificates of a PEM bundle.
    ///
    /// - Throws: ``CertificateError`` when the file is unreadable or holds no certificate.
    public static func caFile(_ path: String) throws(CertificateError) -> TrustStore {
        let certificates = try Certificate.certificates(contentsOf: URL(fileURLWithPath: path))
        return try make(source: .file(path), certificates: certificates)
    }

    /// A folder of CA certificates in OpenSSL's hashed layout (`c_rehash`, `openssl rehash`),
    /// read lazily as chains need them.
    public static func caDirectory(_ path: String) throws(CertificateError) -> TrustStore {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CertificateError(.unreadableFile, "Not a directory of CA certificates", path: path)
        }
        do {
            let store = try OwnedX509Store()
            try store.load(file: nil, directory: path)
            return TrustStore(source: .directory(path), anchors: store)
        } catch {
            throw CertificateError(.unreadableFile, "Cannot use CA directory", path: path, openSSLError: error)
        }
    }

    /// Exactly these anchors. A certificate that is not self-signed (an intermediate) is an
    /// anchor too only for evaluators that accept partial chains, such as certificate pinning.
    public static func certificates(_ certificates: [Certificate]) throws(CertificateError) -> TrustStore {
        try make(source: .certificates(Set(certificates)), certificates: certificates)
    }

    private static func make(source: Source, certificates: [Certificate]) throws(CertificateError) -> TrustStore {
        do {
            let store = try OwnedX509Store()
            for certificate in certificates { try store.add(certificate.x509) }
            return TrustStore(source: source, anchors: store)
        } catch {
            throw CertificateError(.invalidDER, "Cannot add a certificate to a trust store", openSSLError: error)
        }
    }

    /// A one-line description for logs.
    public var description: String {
        switch source {
        case .system: "system trust store"
        case .file(let path): "CA file \(path)"
        case .directory(let path): "CA directory \(path)"
        case .certificates(let set): "\(set.count) pinned anchor(s)"
        }
    }

    /// Stores are equal when they come from the same source (the same file, folder or certificates).
    public static func == (lhs: TrustStore, rhs: TrustStore) -> Bool {
        lhs.source == rhs.source
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
    }
}
