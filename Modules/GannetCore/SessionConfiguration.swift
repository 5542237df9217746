/// How a ``SessionManager`` connects, times out, follows redirects and trusts servers.
///
/// A value type of `var`s with nested groups, fixed when the manager is created:
///
/// ```swift
/// var configuration = SessionConfiguration.default
/// configuration.timeoutIntervalForRequest = 10
/// configuration.redirects = .follow(max: 5)
/// configuration.tls.caFile = "/etc/my-company/ca.pem"
/// let manager = SessionManager(configuration: configuration)
/// ```
public struct SessionConfiguration: Sendable {
    /// Idle timeout in seconds: the task fails with `URLError.timedOut` when no byte moves for
    /// this long (URLSession's meaning of a request timeout). A request whose own
    /// `timeoutInterval` differs from URLRequest's default (60 s) uses its own instead.
    public var timeoutIntervalForRequest: TimeInterval = 60
    /// The longest a whole task may take, redirects included, in seconds.
    public var timeoutIntervalForResource: TimeInterval = 7 * 24 * 3600
    /// The longest the TCP connect and TLS handshake of one connection may take, in seconds.
    public var connectTimeout: TimeInterval = 30
    /// Headers added to every request that does not set them itself.
    public var httpAdditionalHeaders: [String: String] = [:]
    /// The most connections opened to one host at once; `0` means no limit. Requests beyond it
    /// wait for a pooled connection (or share one over HTTP/2).
    public var maximumConnectionsPerHost: Int = 0
    /// The most idle connections kept in the pool for reuse.
    public var maximumIdleConnections: Int = 64
    /// Which engine thread runs the manager's transfers: one of ``EnginePool``'s, shared with
    /// other managers (the default), or one of its own. Either way the manager's connections,
    /// TLS sessions, cookies, credentials and tasks are its own (docs/engine.md, "Engines
    /// shared across managers").
    public var engine: EngineSharing = .shared
    /// Which HTTP versions the engine may speak.
    public var httpVersion: HTTPVersion = .automatic
    /// Whether to ask for and decode `gzip`, `deflate`, `br` and `zstd` bodies.
    public var decompressesResponses: Bool = true
    /// Redirect handling; Gannet follows redirects itself, never libcurl.
    public var redirects: RedirectPolicy = .follow(max: 16)
    /// Size and count limits that protect the client from hostile servers.
    public var limits: Limits = Limits()
    /// Proxy settings.
    public var proxy: Proxy = .environment
    /// Certificate verification and client certificates.
    public var tls: TLS = TLS()
    /// Host overrides and a Unix domain socket: where connections go instead of where the URL's
    /// host says (curl's `--resolve`, `--connect-to`, `--unix-socket`); TLS still verifies the
    /// URL's host.
    public var routing: Routing = Routing()
    /// Whether tasks post `gannetTaskDidResume`, `gannetTaskDidSuspend` and
    /// `gannetTaskDidComplete` (AFNetworking's task notifications). On by default; a service
    /// that never observes them may turn them off: building the userInfo and posting costs
    /// about a fifth of the client CPU of a small request on loopback.
    public var postsTaskNotifications: Bool = true

    /// Where cookies are kept: sent with every request (and every redirect hop) whose
    /// `httpShouldHandleCookies` is true, and stored from every response head's `Set-Cookie`.
    /// A new ``CookieJar`` of this configuration's own by default, in memory and never written
    /// to disk: managers created from different configurations share no cookie, and none reach
    /// another program. (`HTTPCookieStorage.shared`, URLSession's default, is a file named
    /// after the program's directory, mode 0644, that other programs there load; set it
    /// explicitly to share.) To keep cookies across runs, give a ``CookieJar`` with a file;
    /// `nil` neither sends nor stores any (docs/auth-cookies-cache.md).
    public var httpCookieStorage: (any CookieStoring)? = CookieJar()

    /// The response cache: `nil` (the default) caches nothing, as OkHttp and unlike
    /// `URLSessionConfiguration.default`, whose `URLCache.shared` would make every service
    /// share one disk cache unasked. With a cache, a data task's `GET` is answered, revalidated
    /// or stored as NSURLSession does, following the request's `cachePolicy` (all four) and
    /// RFC 9111 as a private cache; ``SessionManager/setDataTaskWillCacheResponse(_:)`` sees
    /// each response before it is stored (docs/auth-cookies-cache.md, "The response cache").
    ///
    /// ```swift
    /// var configuration = SessionConfiguration.default
    /// configuration.urlCache = URLCache(memoryCapacity: 4 << 20, diskCapacity: 64 << 20, diskPath: "/var/cache/myapp")
    /// ```
    public var urlCache: URLCache? = nil

    /// Where default handling of an authentication challenge looks for a credential once the
    /// task's and the manager's `credential` are spent (when
    /// ``SessionManager/shouldUseCredentialStorage`` holds), and where a handler's
    /// `.permanent` credentials are kept. `URLCredentialStorage.shared` by default, as
    /// URLSession's default configuration (in memory on Linux); ``ephemeral`` has one of its
    /// own; `nil` keeps none (docs/auth-cookies-cache.md).
    public var urlCredentialStorage: URLCredentialStorage? = URLCredentialStorage.shared

    /// Creates the default configuration.
    public init() {}

    /// The default configuration: certificate verification against the system store, redirects
    /// followed up to 16 hops, decoding of compressed bodies, a 60 s idle timeout.
    public static var `default`: SessionConfiguration { SessionConfiguration() }

    /// The default configuration with nothing kept beyond the session: cookies in a new
    /// ``CookieJar`` of its own, never written to disk (as by default), and credentials in a new
    /// `URLCredentialStorage` of its own.
    public static var ephemeral: SessionConfiguration {
        var configuration = SessionConfiguration()
        configuration.httpCookieStorage = CookieJar()
        configuration.urlCredentialStorage = URLCredentialStorage()
        return configuration
    }

    /// The HTTP versions the engine may use.
    public struct HTTPVersion: Sendable, Hashable {
        let rawValue: Int
        /// HTTP/2 over TLS when the server offers it through ALPN, HTTP/1.1 otherwise.
        public static let automatic = HTTPVersion(rawValue: 0)
        /// HTTP/1.1 only.
        public static let http1_1 = HTTPVersion(rawValue: 1)
        /// HTTP/2 over TLS when offered, and HTTP/2 with prior knowledge on cleartext.
        public static let http2PriorKnowledge = HTTPVersion(rawValue: 2)
    }

    /// How redirects (`301`, `302`, `303`, `307`, `308`) are followed.
    ///
    /// Only `http` and `https` targets are ever followed; `Authorization`, `Cookie` and
    /// `Proxy-Authorization` never cross to another origin (scheme, host and port).
    public struct RedirectPolicy: Sendable, Hashable {
        /// The most redirects one task follows before it fails with
        /// `URLError.httpTooManyRedirects`; `0` means redirects are delivered, not followed.
        public var maximumRedirects: Int
        /// Whether an `https` URL may redirect to `http`. Refused by default
        /// (`URLError.appTransportSecurityRequiresSecureConnection`).
        public var allowsHTTPSToHTTP: Bool

        /// Follows up to `max` redirects.
        public static func follow(max: Int = 16, allowsHTTPSToHTTP: Bool = false) -> RedirectPolicy {
            RedirectPolicy(maximumRedirects: max, allowsHTTPSToHTTP: allowsHTTPSToHTTP)
        }

        /// Delivers every 3xx response as it is.
        public static let disallow = RedirectPolicy(maximumRedirects: 0, allowsHTTPSToHTTP: false)
    }

    /// Limits on what a server may send. Exceeding one fails the task with a clear error
    /// instead of exhausting memory.
    public struct Limits: Sendable, Hashable {
        /// The most bytes of response headers (all lines of one response together).
        public var maximumHeaderBytes: Int = 256 * 1024
        /// The most header lines in one response.
        public var maximumHeaderCount: Int = 500
        /// The most informational (1xx) responses before the final one.
        public var maximumInformationalResponses: Int = 10
        /// The most body bytes, after decompression, that a data task keeps in memory.
        /// Download tasks stream to a file and use ``maximumDownloadBytes``.
        public var maximumBodyBytes: Int64 = 100 * 1024 * 1024
        /// The most body bytes, after decompression, that a download task writes to its file
        /// or a byte stream (``SessionManager/bytes(for:)``) hands on; `nil` means no limit.
        /// Defaults to 32 GiB: more than any file a user means to fetch in one request, less
        /// than an endless or inflating body needs to fill a disk. Exceeding it fails the task
        /// with ``GannetError/Code/bodyTooLarge``.
        public var maximumDownloadBytes: Int64? = 32 << 30
        /// The most decoded bytes per byte received on the wire, for any body with a
        /// `Content-Encoding`; `nil` means no limit. Checked once a body has decoded to more
        /// than ``decompressionRatioGraceBytes`` (so small, very compressible bodies are never
        /// refused). Defaults to 200: text, JSON and logs compress 3 to 30 times, very sparse
        /// data a few hundred times, while a gzip bomb inflates 1,000 times (brotli's far more).
        /// Exceeding it fails the task with ``GannetError/Code/decompressionBomb``.
        public var maximumDecompressionRatio: Int? = 200

        /// How many decoded bytes a body may reach before ``maximumDecompressionRatio`` applies:
        /// 16 MiB.
        public static let decompressionRatioGraceBytes: Int64 = 16 << 20

        /// Creates the default limits.
        public init() {}
    }

    /// Where requests go through a proxy.
    public enum Proxy: Sendable, Hashable {
        /// `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy` from the environment, as curl
        /// and URLSession read them.
        case environment
        /// Never use a proxy, whatever the environment says.
        case none
        /// Use this proxy (`http://`, `https://`, `socks5://` …), except for hosts in `bypass`
        /// (curl's `NOPROXY` syntax: a comma-separated list, `*` for all).
        case url(URL, bypass: String? = nil)
    }

    /// Server certificate verification and client certificates.
    public struct TLS: Sendable {
        /// A PEM file of CA certificates to trust instead of the system store. Ignored when
        /// ``serverTrustEvaluator`` is set: give the evaluator its anchors (GannetSecurity's
        /// `TrustStore`).
        public var caFile: String? = nil
        /// A folder of hashed CA certificates (`c_rehash` layout) to trust instead of the system
        /// store. Ignored when ``serverTrustEvaluator`` is set.
        public var caDirectory: String? = nil
        /// Decides trust inside the handshake; replaces the default verification when set.
        /// `GannetSecurity.SecurityPolicy` is one.
        public var serverTrustEvaluator: (any ServerTrustEvaluating)? = nil
        /// A client certificate for mutual TLS.
        public var clientCertificate: ClientCertificate? = nil

        /// Creates the default: verification against the system store.
        public init() {}
    }

    /// A client certificate and its private key, for servers that ask for mutual TLS.
    public struct ClientCertificate: Sendable, Hashable {
        /// The file formats libcurl accepts for a client certificate.
        public enum Format: String, Sendable, Hashable {
            /// A PEM certificate with the key in ``keyFile`` (or in the same file).
            case pem = "PEM"
            /// A DER certificate with the key in ``keyFile``.
            case der = "DER"
            /// A PKCS#12 bundle holding certificate and key, optionally with a password.
            case pkcs12 = "P12"
        }
        /// The certificate (or PKCS#12 bundle) file.
        public var certificateFile: String
        /// The private key file; `nil` when it is in `certificateFile`.
        public var keyFile: String?
        /// The certificate file's format.
        public var format: Format
        /// The key or bundle password, if any.
        public var password: String?

        /// Creates a client certificate from files.
        public init(certificateFile: String, keyFile: String? = nil, format: Format = .pem, password: String? = nil) {
            self.certificateFile = certificateFile
            self.keyFile = keyFile
            self.format = format
            self.password = password
        }
    }
}
