import Gannet
import GannetSecurity

/// Builds the server trust evaluator for `--pin`, `--pinned-cert`, `--pinning-mode`,
/// `--allow-invalid-certificates` and `--no-validate-domain`, from GannetSecurity's evaluators.
/// With an evaluator the engine no longer uses libcurl's verification, so `--cacert` becomes
/// the evaluator's trust store.
enum TrustPolicyBuilder {
    static func evaluator(for tls: Options.TLS) throws -> any ServerTrustEvaluating {
        let store = try trustStore(tls.caFile)
        if tls.pinningMode != nil, tls.pinnedCertificates.isEmpty {
            throw CLIError.usage("--pinning-mode applies to --pinned-cert; --pin always pins public keys")
        }
        var evaluators: [any ServerTrustEvaluating] = []
        if !tls.pinnedCertificates.isEmpty {
            let certificates = try tls.pinnedCertificates.flatMap(loadCertificates)
            // AFNetworking's policy: certificate mode makes the pinned certificates the only
            // anchors; public-key mode wants one of their keys in a chain the store trusts.
            var policy = SecurityPolicy(
                pinningMode: tls.pinningMode == "certificate" ? .certificate : .publicKey,
                withPinnedCertificates: Set(certificates.map(\.derEncoded))
            )
            policy.allowInvalidCertificates = tls.allowInvalidCertificates
            policy.validatesDomainName = tls.validatesDomainName
            policy.trustStore = store
            evaluators.append(policy)
        }
        if !tls.pins.isEmpty {
            if tls.allowInvalidCertificates {
                throw CLIError.usage(
                    "--pin is checked against a verified chain: trust a private CA with --cacert, or pin with --pinned-cert and --allow-invalid-certificates"
                )
            }
            let pins: PinSet
            do {
                pins = try PinSet(tls.pins)
            } catch {
                throw CLIError.usage(
                    "\(error) (pins look like sha256/ and 44 base64 characters; `gannet pins` prints them)"
                )
            }
            evaluators.append(
                PublicKeysTrustEvaluator(pins: pins, trustStore: store, validatesHost: tls.validatesDomainName)
            )
        }
        switch evaluators.count {
        case 0 where tls.allowInvalidCertificates:
            // Alone, like `curl -k`: any server is trusted.
            var policy = SecurityPolicy.default
            policy.allowInvalidCertificates = true
            policy.validatesDomainName = false
            return policy
        case 0:
            return DefaultTrustEvaluator(trustStore: store, validatesHost: tls.validatesDomainName)
        case 1:
            return evaluators[0]
        default:
            return CompositeTrustEvaluator(evaluators)
        }
    }

    static func trustStore(_ caFile: String?) throws -> TrustStore {
        guard let caFile else { return .system }
        do {
            return try TrustStore.caFile(caFile)
        } catch {
            throw CLIError("cannot use the CA file \(caFile): \(error)")
        }
    }

    /// The certificates in a PEM bundle or a DER file.
    static func loadCertificates(_ path: String) throws -> [Certificate] {
        let url = URL(fileURLWithPath: path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CLIError("cannot read the certificate file \(path)")
        }
        if let bundle = try? Certificate.certificates(pemEncoded: data), !bundle.isEmpty { return bundle }
        do {
            return [try Certificate(data: data)]
        } catch {
            throw CLIError("\(path) holds no certificate (PEM or DER): \(error)")
        }
    }
}
