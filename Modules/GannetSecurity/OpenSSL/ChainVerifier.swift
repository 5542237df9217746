internal import COpenSSL
import Foundation

/// Builds and verifies a chain with `X509_verify_cert`, returning the verified chain
/// (`X509_STORE_CTX_get0_chain`, anchor included) that pins are compared against.
struct ChainVerifier {
    /// What the verifier may forgive.
    enum Leniency {
        /// Every `X509_verify_cert` error is fatal.
        case strict
        /// Forgives an unknown or self-signed root and validity dates (what AFNetworking's
        /// `allowInvalidCertificates` is for: development servers), but never a bad signature,
        /// a non-CA issuer, a path length or a purpose violation. The chain OpenSSL builds is still
        /// linked by verified signatures, so a pin compared against it means what it says.
        case allowsUntrustedAndDates
    }

    let trustStore: TrustStore
    /// Whether a non-self-signed anchor (a pinned intermediate or leaf) ends a chain.
    var allowsPartialChain = false
    var leniency = Leniency.strict

    func verify(_ presented: PresentedChain) throws(ServerTrustError) -> [Certificate] {
        OpenSSLError.clearQueue()
        guard let context = X509_STORE_CTX_new() else {
            throw internalError("X509_STORE_CTX_new", presented)
        }
        defer { X509_STORE_CTX_free(context) }
        let untrusted: OwnedX509Stack
        do {
            untrusted = try OwnedX509Stack()
            for certificate in presented.intermediates { try untrusted.append(certificate.x509) }
        } catch {
            throw ServerTrustError(
                .internalError,
                "Cannot collect the presented chain: \(error)",
                host: presented.host,
                openSSLError: error
            )
        }
        guard
            X509_STORE_CTX_init(context, trustStore.anchors.pointer, presented.leaf.x509.pointer, untrusted.pointer)
                == 1
        else {
            throw internalError("X509_STORE_CTX_init", presented)
        }
        // A TLS server certificate: checks extendedKeyUsage serverAuth on the leaf.
        _ = X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER)
        if allowsPartialChain {
            X509_STORE_CTX_set_flags(context, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        }
        if leniency == .allowsUntrustedAndDates {
            X509_STORE_CTX_set_verify_cb(context, forgiveUntrustedAndDates)
        }
        let result = X509_verify_cert(context)
        if result == 1 {
            let chain = try verifiedChain(context, presented)
            guard !chain.isEmpty else { throw internalError("X509_STORE_CTX_get0_chain", presented) }
            return chain
        }
        if result < 0 {
            throw internalError("X509_verify_cert", presented)
        }
        let error = X509_STORE_CTX_get_error(context)
        let depth = Int(X509_STORE_CTX_get_error_depth(context))
        let reason = String(cString: X509_verify_cert_error_string(Int(error)))
        let culprit = X509_STORE_CTX_get_current_cert(context)
            .flatMap { try? CertificateCache.certificate(OwnedX509(retaining: $0)) }
        let partial = (try? verifiedChain(context, presented)) ?? []
        let code = Self.code(for: error)
        var message = "Certificate chain of \(presented.host) is not trusted: \(reason)"
        if let culprit { message += " at depth \(depth) (\(culprit.subjectSummary))" }
        message += " [\(trustStore)]"
        throw ServerTrustError(
            code,
            message,
            host: presented.host,
            verifyResult: Int(error),
            failingDepth: depth,
            presentedChain: partial.isEmpty ? presented.certificates() : partial
        )
    }

    /// The chain OpenSSL built, leaf first. All or nothing: a chain missing a member would
    /// shift the leaf's position and weaken every later check.
    private func verifiedChain(
        _ context: OpaquePointer,
        _ presented: PresentedChain
    ) throws(ServerTrustError) -> [Certificate] {
        guard let chain = X509_STORE_CTX_get0_chain(context) else { return [] }
        var certificates: [Certificate] = []
        for member in chain.retainedX509Members() {
            do {
                certificates.append(try CertificateCache.certificate(member))
            } catch {
                throw ServerTrustError(
                    .internalError,
                    "Cannot read the verified chain of \(presented.host): \(error)",
                    host: presented.host,
                    openSSLError: error.openSSLError
                )
            }
        }
        return certificates
    }

    private func internalError(_ operation: String, _ presented: PresentedChain) -> ServerTrustError {
        let error = OpenSSLError.drain(operation)
        return ServerTrustError(
            .internalError,
            "OpenSSL failed while verifying \(presented.host): \(error)",
            host: presented.host,
            openSSLError: error
        )
    }

    static func code(for verifyError: Int32) -> ServerTrustError.Code {
        switch verifyError {
        case X509_V_ERR_CERT_HAS_EXPIRED: .expired
        case X509_V_ERR_CERT_NOT_YET_VALID: .notYetValid
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
            X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_CERT_UNTRUSTED:
            .untrustedRoot
        default: .chainInvalid
        }
    }
}

/// The verify callback of ``ChainVerifier/Leniency/allowsUntrustedAndDates``: a top-level
/// C function because OpenSSL calls it without a context pointer of ours.
private let forgiveUntrustedAndDates: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, context in
    if ok == 1 { return 1 }
    guard let context else { return 0 }
    switch X509_STORE_CTX_get_error(context) {
    case X509_V_ERR_CERT_HAS_EXPIRED, X509_V_ERR_CERT_NOT_YET_VALID,
        X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
        X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
        X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN, X509_V_ERR_CERT_UNTRUSTED:
        return 1
    default:
        return 0
    }
}
