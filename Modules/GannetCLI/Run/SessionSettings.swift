import Gannet
import GannetSecurity

/// The `SessionConfiguration` the options ask for: redirects, timeouts, proxy, trust, client
/// certificates.
enum SessionSettings {
    /// httpie's default limit for `--follow`.
    static let defaultMaximumRedirects = 30

    /// The configuration for a request to `url` (which picks the `--proxy` for its scheme).
    static func configuration(for options: Options, url: URL) throws -> SessionConfiguration {
        var configuration = SessionConfiguration.default
        // Cookies live for one command (its redirects), as in httpie; `--session` keeps them
        // in a file of its own (SessionFile), never in the shared storage.
        configuration.httpCookieStorage = EphemeralCookieStorage()
        // Nothing in the command observes AFNetworking's task notifications; building and
        // posting them is start-up work for nobody (docs/performance.md, "Start-up").
        configuration.postsTaskNotifications = false
        configuration.redirects =
            options.follow
            ? .follow(max: options.maxRedirects ?? defaultMaximumRedirects)
            : .disallow
        applyNetwork(options, url: url, to: &configuration)
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
                lowercased.hasSuffix(".p12") || lowercased.hasSuffix(".pfx")
                ? .pkcs12 : lowercased.hasSuffix(".der") ? .der : .pem
            let clientCertificate = SessionConfiguration.ClientCertificate(
                certificateFile: certificate,
                keyFile: tls.key,
                format: format,
                password: tls.keyPassword
            )
            // Loaded and checked now, so a wrong password or a key that does not match says so
            // instead of failing the handshake later without a reason.
            do {
                configuration.tls.clientCertificate = try ClientIdentity.validating(clientCertificate).clientCertificate
            } catch {
                throw CLIError("cannot use the client certificate: \(error)")
            }
        } else if tls.key != nil {
            throw CLIError.usage("--key needs --cert")
        } else if tls.keyPassword != nil {
            throw CLIError.usage("--cert-key-pass needs --cert")
        }
        if tls.needsPolicy {
            configuration.tls.serverTrustEvaluator = try TrustPolicyBuilder.evaluator(for: tls)
        }
        return configuration
    }

    /// Timeouts, proxy and routing, shared with `gannet pins`: `--timeout` is the idle and
    /// connect timeout, `--max-time` the resource timeout (the whole exchange), `--proxy` the
    /// proxy for `url`'s scheme (none given: the environment's, as curl reads it), and
    /// `--resolve`, `--connect-to` and `--unix-socket` where connections go.
    static func applyNetwork(_ options: Options, url: URL, to configuration: inout SessionConfiguration) {
        if let timeout = options.timeout {
            configuration.timeoutIntervalForRequest = timeout
            configuration.connectTimeout = timeout
        }
        if let maxTime = options.maxTime {
            configuration.timeoutIntervalForResource = maxTime
            configuration.connectTimeout = min(configuration.connectTimeout, maxTime)
        }
        if let proxy = Options.Proxy.choose(options.proxies, for: url) {
            configuration.proxy = .url(proxy.url)
        }
        configuration.routing = options.routing
    }
}
