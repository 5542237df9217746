internal import COpenSSL
public import Foundation

/// Checks an OCSP response stapled to a TLS handshake (RFC 6066 section 8, RFC 6960) for the
/// leaf of a verified chain: signed by the leaf's issuer or its delegated responder, current,
/// and saying "good" for exactly this certificate.
///
/// ```swift
/// let chain = try DefaultTrustEvaluator(trustStore: store).verifiedChain(for: trust)
/// try StapledOCSPVerifier(trustStore: store).verify(stapledResponse, for: chain, host: trust.host)
/// ```
///
/// ``OCSPStaplingTrustEvaluator`` runs this check inside the handshake, on the response the
/// engine hands over in `ServerTrust.stapledOCSPResponse`. Certificate IDs are matched with
/// SHA-1, the hash OpenSSL's `OCSP_cert_to_id` and public responders use.
public struct StapledOCSPVerifier: Sendable {
    /// The anchors the responder's certificate must chain to.
    public var trustStore: TrustStore
    /// How far `thisUpdate` / `nextUpdate` may be off the local clock, in seconds.
    public var allowedClockSkew: TimeInterval

    /// Creates a verifier.
    public init(trustStore: TrustStore = .system, allowedClockSkew: TimeInterval = 300) {
        self.trustStore = trustStore
        self.allowedClockSkew = allowedClockSkew
    }

    /// Throws ``ServerTrustError/Code/revoked`` when the response says the leaf is revoked, and
    /// ``ServerTrustError/Code/ocspResponseInvalid`` when the response cannot be relied on.
    ///
    /// - Parameters:
    ///   - response: the DER-encoded OCSP response the server stapled.
    ///   - verifiedChain: leaf first, its issuer second, as
    ///     ``DefaultTrustEvaluator/verifiedChain(for:)`` returns it.
    ///   - host: the host the chain was presented for, named in the errors.
    public func verify(_ response: Data, for verifiedChain: [Certificate], host: String) throws(ServerTrustError) {
        guard verifiedChain.count >= 2 else {
            throw invalid("the chain has no issuer to check the response against", host, verifiedChain)
        }
        OpenSSLError.clearQueue()
        let parsed: OpaquePointer? = response.withUnsafeBytes { raw in
            guard let base = raw.bindMemory(to: UInt8.self).baseAddress, raw.count > 0 else { return nil }
            var cursor: UnsafePointer<UInt8>? = base
            return d2i_OCSP_RESPONSE(nil, &cursor, raw.count)
        }
        guard let parsed else {
            throw invalid("not an OCSP response", host, verifiedChain, OpenSSLError.drain("d2i_OCSP_RESPONSE"))
        }
        defer { OCSP_RESPONSE_free(parsed) }
        let status = OCSP_response_status(parsed)
        guard status == OCSP_RESPONSE_STATUS_SUCCESSFUL else {
            throw invalid(
                "responder status \(String(cString: OCSP_response_status_str(Int(status))))",
                host,
                verifiedChain
            )
        }
        guard let basic = OCSP_response_get1_basic(parsed) else {
            throw invalid("no basic response", host, verifiedChain, OpenSSLError.drain("OCSP_response_get1_basic"))
        }
        defer { OCSP_BASICRESP_free(basic) }
        try checkSignature(basic, verifiedChain, host)
        try checkStatus(basic, verifiedChain, host)
    }

    private func checkSignature(_ basic: OpaquePointer, _ chain: [Certificate], _ host: String) throws(ServerTrustError)
    {
        let certificates: OwnedX509Stack
        do {
            certificates = try OwnedX509Stack()
            for certificate in chain.dropFirst() { try certificates.append(certificate.x509) }
        } catch {
            throw ServerTrustError(
                .internalError,
                "Cannot collect the chain: \(error)",
                host: host,
                openSSLError: error
            )
        }
        OpenSSLError.clearQueue()
        guard OCSP_basic_verify(basic, certificates.pointer, trustStore.anchors.pointer, 0) == 1 else {
            throw invalid("its signature does not verify", host, chain, OpenSSLError.drain("OCSP_basic_verify"))
        }
    }

    private func checkStatus(_ basic: OpaquePointer, _ chain: [Certificate], _ host: String) throws(ServerTrustError) {
        guard let id = OCSP_cert_to_id(nil, chain[0].x509.pointer, chain[1].x509.pointer) else {
            throw invalid("cannot identify the certificate", host, chain, OpenSSLError.drain("OCSP_cert_to_id"))
        }
        defer { OCSP_CERTID_free(id) }
        var status: Int32 = -1
        var reason: Int32 = -1
        var revokedAt: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>? = nil
        var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>? = nil
        var nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>? = nil
        guard OCSP_resp_find_status(basic, id, &status, &reason, &revokedAt, &thisUpdate, &nextUpdate) == 1 else {
            throw invalid("it has no status for \(chain[0].subjectSummary)", host, chain)
        }
        OpenSSLError.clearQueue()
        guard OCSP_check_validity(thisUpdate, nextUpdate, Int(allowedClockSkew), -1) == 1 else {
            throw invalid("it is not current", host, chain, OpenSSLError.drain("OCSP_check_validity"))
        }
        switch status {
        case V_OCSP_CERTSTATUS_GOOD:
            return
        case V_OCSP_CERTSTATUS_REVOKED:
            let why = reason >= 0 ? String(cString: OCSP_crl_reason_str(Int(reason))) : "no reason given"
            throw ServerTrustError(
                .revoked,
                "Certificate \(chain[0].subjectSummary) of \(host) is revoked (\(why))",
                host: host,
                presentedChain: chain
            )
        default:
            throw invalid("the responder does not know \(chain[0].subjectSummary)", host, chain)
        }
    }

    private func invalid(
        _ why: String,
        _ host: String,
        _ chain: [Certificate],
        _ error: OpenSSLError? = nil
    ) -> ServerTrustError {
        ServerTrustError(
            .ocspResponseInvalid,
            "Stapled OCSP response for \(host) is unusable: \(why)",
            host: host,
            presentedChain: chain,
            openSSLError: error
        )
    }
}
