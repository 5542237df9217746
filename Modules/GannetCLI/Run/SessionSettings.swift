import Gannet

/// The `SessionConfiguration` the options ask for: redirects, timeouts, trust, client
/// certificates.
enum SessionSettings {
    /// httpie's default limit for `--follow`.
    static let defaultMaximumRedirects = 30

    static func configuration(for options: Options) throws -> SessionConfiguration {
        var configuration = SessionConfiguration.default
        configuration.redirects = options.follow
            ? .follow(max: options.maxRedirects ?? defaultMaximumRedirects)
            : .disallow
        if let timeout = options.timeout {
            configuration.timeoutIntervalForRequest = timeout
            configuration.connectTimeout = timeout
        }
        // A download is saved as the server sent it (httpie asks for `identity`), and may be large.
        if options.download {
            configuration.decompressesResponses = false
        }
        let tls = options.tls
        if let caFile = tls.caFile {
            guard FileManager.default.isReadableFile(atPath: caFile) else {
                throw CLIError("cannot read the CA file \(caFile)")
            }
            configuration.tls.caFile = caFile
        }
        if let certificate = tls.certificate {
            guard FileManager.default.isReadableFile(atPath: certificate) else {
                throw CLIError("cannot read the client certificate \(certificate)")
            }
            if let key = tls.key, !FileManager.default.isReadableFile(atPath: key) {
                throw CLIError("cannot read the client key \(key)")
            }
            let lowercased = certificate.lowercased()
            let format: SessionConfiguration.ClientCertificate.Format =
                lowercased.hasSuffix(".p12") || lowercased.hasSuffix(".pfx") ? .pkcs12 : lowercased.hasSuffix(".der") ? .der : .pem
            configuration.tls.clientCertificate = .init(certificateFile: certificate, keyFile: tls.key, format: format)
        } else if tls.key != nil {
            throw CLIError.usage("--key needs --cert")
        }
        if tls.needsPolicy {
            configuration.tls.serverTrustEvaluator = try TrustPolicyBuilder.evaluator(for: tls)
        }
        return configuration
    }
}
