import Gannet

/// Builds the server trust evaluator for `--pin`, `--pinned-cert`, `--pinning-mode`,
/// `--allow-invalid-certificates` and `--no-validate-domain`.
enum TrustPolicyBuilder {
    static func evaluator(for tls: Options.TLS) throws -> any ServerTrustEvaluating {
        throw CLIError("pinning and certificate options need GannetSecurity, which this build does not include yet")
    }
}
