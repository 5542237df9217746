internal import Synchronization

/// AFNetworking's `AFHTTPSessionManager`: a `SessionManager` with a base URL, a
/// request serializer, a response serializer and the HTTP verbs as methods.
///
/// ```swift
/// let manager = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1"))
/// manager.GET("users", parameters: ["page": 2], success: { task, users in
///     print(users as Any)
/// }, failure: { task, error in
///     print(error)
/// })
/// // or
/// let users = try await manager.get("users", parameters: ["page": 2], as: [User].self)
/// ```
///
/// `SessionManager` is `final`, so the HTTP manager is built by composition: ``session`` is the
/// manager that runs every task, and its hooks, `completionQueue`, `tasks` and invalidation are
/// there to use.
///
/// ## Security policy
/// The core decides server trust inside the TLS handshake with the evaluator fixed in the
/// `SessionConfiguration`; pass a policy to ``init(baseURL:securityPolicy:configuration:)``, or
/// replace it on a live manager with ``setSecurityPolicy(_:)`` (new connections, and pooled
/// ones before their next request, are decided by the new policy). Both throw
/// ``InsecureTransportError`` for a policy that requires HTTPS (one that pins) without an
/// `https` base URL, where AFNetworking raised an "Invalid Security Policy" exception. Such a
/// manager also refuses every request to a non-`https` URL (the failure handler gets the same
/// error, and nothing is sent), whichever initializer made it.
public final class HTTPSessionManager: Sendable {
    /// The session manager that runs the tasks; set hooks, the completion queue and the
    /// completion group on it. A new one replaces it when
    /// ``invalidateSession(cancelingTasks:resetSession:)`` resets the session.
    public var session: SessionManager { state.withLock { $0.session } }

    /// The URL that relative paths are resolved against, with a trailing `/` added to a
    /// non-empty path that lacks one (AFNetworking's rule), so `http://x/v1` + `foo` is
    /// `http://x/v1/foo` while `/foo` is `http://x/foo`.
    public let baseURL: URL?

    private let state: Mutex<State>
    /// Where failures that happen before a task exists are delivered when the session has no
    /// completion queue.
    private let fallbackQueue = DispatchQueue(label: "gannet.http-session-manager.completion")

    private struct State: Sendable {
        var session: SessionManager
        var requestSerializer: any ConfigurableRequestSerializer
        var responseSerializer: any ResponseValidating
    }

    /// Creates a manager for `baseURL` (nil: every URL string must be absolute) whose session is
    /// built from `configuration`, including its `tls.serverTrustEvaluator`.
    ///
    /// The request serializer is `HTTPRequestSerializer` and the
    /// response serializer is the default of ``defaultResponseSerializer``.
    public init(baseURL: URL? = nil, configuration: SessionConfiguration = .default) {
        self.baseURL = baseURL.map(Self.addingTrailingSlash)
        let session = SessionManager(configuration: configuration)
        let responseSerializer = Self.defaultResponseSerializer
        session.responseSerializer = responseSerializer
        state = Mutex(
            State(session: session, requestSerializer: HTTPRequestSerializer(), responseSerializer: responseSerializer)
        )
    }

    /// Creates a manager whose server trust is decided by `securityPolicy` (for example a
    /// `GannetSecurity.SecurityPolicy`), replacing `configuration.tls.serverTrustEvaluator`.
    ///
    /// ```swift
    /// let policy = SecurityPolicy(pinningMode: .publicKey, withPinnedCertificates: certificates)
    /// let manager = try HTTPSessionManager(baseURL: URL(string: "https://api.example.com"), securityPolicy: policy)
    /// ```
    ///
    /// - Throws: ``InsecureTransportError`` when the policy requires secure transport
    ///   (`requiresSecureTransport`, true for a pinning policy) and `baseURL` is `nil` or not
    ///   `https`, as AFNetworking's `setSecurityPolicy:` refused it.
    public convenience init(
        baseURL: URL?,
        securityPolicy: any ServerTrustEvaluating,
        configuration: SessionConfiguration = .default
    ) throws {
        if securityPolicy.requiresSecureTransport, baseURL?.scheme?.lowercased() != "https" {
            throw InsecureTransportError(url: baseURL, reason: baseURL == nil ? .noBaseURL : .insecureBaseURL)
        }
        var configuration = configuration
        configuration.tls.serverTrustEvaluator = securityPolicy
        self.init(baseURL: baseURL, configuration: configuration)
    }

    /// The response serializer a new manager starts with: JSON (AFNetworking's
    /// `AFJSONResponseSerializer`), which validates the status code and the `Content-Type`.
    public static var defaultResponseSerializer: any ResponseValidating { JSONResponseSerializer() }

    /// Builds requests from the method, URL and parameters. Defaults to
    /// `HTTPRequestSerializer` (query string for `GET`, `HEAD`,
    /// `DELETE`, URL-encoded form otherwise); assign `JSONRequestSerializer()` for JSON bodies.
    /// A change applies to requests built afterwards.
    ///
    /// Change the installed serializer in place, as with AFNetworking:
    ///
    /// ```swift
    /// manager.requestSerializer.setValue("abc", forHTTPHeaderField: "X-Token")
    /// manager.requestSerializer.setAuthorizationHeader(username: "user", password: "secret")
    /// manager.requestSerializer.configuration.timeoutInterval = 10
    /// ```
    ///
    /// Every setting lives in the serializer's `RequestSerializerConfiguration`,
    /// which each serializer applies with `prepare(_:)`; a serializer of your own conforms to
    /// `ConfigurableRequestSerializer` to hold them (docs/request-serialization.md).
    /// A change in place reads, changes and stores the serializer, each step under the
    /// manager's lock: configure it from one thread at a time, as AFNetworking required.
    public var requestSerializer: any ConfigurableRequestSerializer {
        get { state.withLock { $0.requestSerializer } }
        set { state.withLock { $0.requestSerializer = newValue } }
    }

    /// Turns responses into values for the completion-handler methods and the untyped async
    /// methods, and judges every download's response before its file is saved (a refused one
    /// fails and saves nothing, as in AFNetworking; docs/core.md, "Downloads"); also installed as
    /// ``session``'s `responseSerializer` (setting the session's directly changes only the
    /// session's own untyped tasks and downloads).
    ///
    /// Change the installed serializer in place, as with AFNetworking:
    ///
    /// ```swift
    /// manager.responseSerializer.acceptableContentTypes.insert("text/html")
    /// manager.responseSerializer.acceptableStatusCodes.insert(404)
    /// ```
    ///
    /// The type is `ResponseValidating`, so both settings are
    /// the installed serializer's own and take effect: every concrete serializer of
    /// GannetResponseSerialization and GannetXML validates, and so does
    /// `ResponseSerializerRegistry`, which passes them on to its
    /// entries. A serializer that cannot hold them (a plain `ResponseSerializing`, the
    /// type-erasing `AnyResponseSerializer`) runs per task or inside a registry instead. (`acceptableContentTypes == nil` means any type, and stays `nil` on `insert`.)
    /// As with ``requestSerializer``, configure it from one thread at a time.
    public var responseSerializer: any ResponseValidating {
        get { state.withLock { $0.responseSerializer } }
        set {
            // Both under the manager's lock, so concurrent assignments leave the manager and
            // its session with the same serializer (the session never takes this lock).
            state.withLock { state in
                state.responseSerializer = newValue
                state.session.responseSerializer = newValue
            }
        }
    }

    /// The server trust evaluator of the session, `nil` for libcurl's own verification against
    /// the system store (or `tls.caFile`). Set it with ``setSecurityPolicy(_:)``.
    public var securityPolicy: (any ServerTrustEvaluating)? { session.serverTrustEvaluator }

    /// Replaces the security policy on this live manager (AFNetworking's `securityPolicy`
    /// setter); `nil` returns to libcurl's own verification. Tasks started afterwards are
    /// decided by it: on a new connection in its handshake, and on a pooled connection that the
    /// old policy approved before it carries another request (a refusal fails that task with
    /// `URLError.serverCertificateUntrusted`). Tasks already running keep the old policy.
    ///
    /// ```swift
    /// try manager.setSecurityPolicy(SecurityPolicy(pinningMode: .certificate, withPinnedCertificates: certificates))
    /// ```
    ///
    /// - Throws: ``InsecureTransportError`` when the policy requires secure transport and
    ///   ``baseURL`` is `nil` or not `https` (AFNetworking's "Invalid Security Policy"); the
    ///   policy in force is then unchanged.
    public func setSecurityPolicy(_ policy: (any ServerTrustEvaluating)?) throws {
        if let policy, policy.requiresSecureTransport, baseURL?.scheme?.lowercased() != "https" {
            throw InsecureTransportError(url: baseURL, reason: baseURL == nil ? .noBaseURL : .insecureBaseURL)
        }
        session.setServerTrustEvaluator(policy)
    }

    /// The queue success and failure handlers run on; `nil` means a serial queue of the
    /// manager's own (never the main queue, which a Linux process often does not run).
    public var completionQueue: DispatchQueue? {
        get { session.completionQueue }
        set { session.completionQueue = newValue }
    }

    /// A group every completion handler runs in (the session's `completionGroup`).
    public var completionGroup: DispatchGroup? {
        get { session.completionGroup }
        set { session.completionGroup = newValue }
    }

    /// Adapts and retries every request (the session's `interceptor`), before a per-request
    /// interceptor given to ``response(method:_:parameters:headers:serializer:interceptor:)``.
    /// See docs/interceptors.md.
    ///
    /// ```swift
    /// manager.interceptor = Interceptor(interceptors: [RetryPolicy(), authentication])
    /// ```
    public var interceptor: (any RequestInterceptor)? {
        get { session.interceptor }
        set { session.interceptor = newValue }
    }

    /// Tasks that have not completed yet.
    public var tasks: [SessionTask] { session.tasks }

    /// Invalidates the session (AFNetworking's `invalidateSessionCancelingTasks:`): with
    /// `cancelingTasks`, unfinished tasks are cancelled; without, they finish. New tasks fail.
    public func invalidateSession(cancelingTasks: Bool) {
        invalidateSession(cancelingTasks: cancelingTasks, resetSession: false)
    }

    /// Invalidates the session and, with `resetSession`, gives the manager a fresh one
    /// (AFNetworking's `invalidateSessionCancelingTasks:resetSession:`). The new ``session`` has
    /// the old one's configuration, hooks, event monitors, serializer, queues, interceptor and
    /// security policy, and its own connection pool; the old session's tasks are cancelled
    /// (`cancelingTasks`) or finish on the old session, which then takes no new task.
    /// Without `resetSession`, the manager keeps its invalidated session and new tasks fail.
    ///
    /// ```swift
    /// manager.invalidateSession(cancelingTasks: true, resetSession: true)
    /// ```
    public func invalidateSession(cancelingTasks: Bool, resetSession: Bool) {
        let old = state.withLock { state in
            let old = state.session
            // The successor is made before the old session is invalidated, which drops its hooks.
            if resetSession { state.session = old.successor() }
            return old
        }
        if cancelingTasks {
            old.invalidateAndCancel()
        } else {
            old.finishTasksAndInvalidate()
        }
    }

    // MARK: Building requests

    /// The absolute URL for `urlString`, resolved against ``baseURL`` as
    /// `URL(string:relativeTo:)` resolves it. An empty string is the base URL itself.
    ///
    /// - Throws: `GannetError(.invalidRequest)` when `urlString` holds a space or a control
    ///   character, is not a URL, or is relative while the manager has no base URL.
    public func url(for urlString: String) throws -> URL {
        // Read as UTF-8 bytes in place: a space and the controls are single bytes, and every byte
        // of a longer scalar is 0x80 or more. Through `unicodeScalars` the check cost about 400
        // instructions a request more (callgrind, docs/performance.md).
        let isRefused = { (byte: UInt8) in byte <= 0x20 || byte == 0x7F }
        if urlString.utf8.withContiguousStorageIfAvailable({ $0.contains(where: isRefused) })
            ?? urlString.utf8.contains(where: isRefused)
        {
            throw GannetError(
                .invalidRequest,
                "The URL string \(urlString.debugDescription) holds a space or a control character; percent-escape it"
            )
        }
        if urlString.isEmpty, let baseURL { return baseURL }
        guard let url = URL(string: urlString, relativeTo: baseURL)?.absoluteURL, Self.hasScheme(url) else {
            throw GannetError(
                .invalidRequest,
                baseURL == nil
                    ? "\(urlString.debugDescription) is not an absolute URL and the manager has no base URL"
                    : "\(urlString.debugDescription) is not a valid URL"
            )
        }
        return url
    }

    /// Whether `url` has a scheme: its absolute string starts with a letter, then letters,
    /// digits, `+`, `-` or `.`, then `:` (RFC 3986 §3.1), as Foundation's parser reads one.
    /// Read from the string's bytes in place: Foundation's `scheme` makes a `String` of it,
    /// about 430 instructions a request (docs/performance.md).
    static func hasScheme(_ url: URL) -> Bool {
        var string = url.absoluteString
        return string.withUTF8 { bytes in
            for (offset, byte) in bytes.enumerated() {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    continue
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."):
                    if offset == 0 { return false }
                case UInt8(ascii: ":"):
                    return offset > 0
                default:
                    return false
                }
            }
            return false
        }
    }

    /// Builds the request for `method` and `urlString` with `headers` set, then encodes
    /// `parameters` into it with ``requestSerializer``. Per-request headers win over the
    /// serializer's default headers.
    ///
    /// - Throws: the errors of ``url(for:)``; `GannetError(.invalidHeader)` for a header that
    ///   cannot be sent; ``InsecureTransportError`` for a non-`https` URL when the security policy
    ///   requires secure transport; whatever the serializer throws.
    public func request(
        method: String,
        urlString: String,
        parameters: Parameters?,
        headers: [String: String]?
    ) throws -> URLRequest {
        try requestSerializer.request(
            byEncoding: parameters,
            into: baseRequest(method: method, urlString: urlString, headers: headers)
        )
    }

    /// The request before parameters are encoded: URL, method and headers, checked.
    func baseRequest(method: String, urlString: String, headers: [String: String]?) throws -> URLRequest {
        let url = try url(for: urlString)
        if securityPolicy?.requiresSecureTransport == true, url.scheme?.lowercased() != "https" {
            throw InsecureTransportError(url: url, reason: .insecureRequestURL)
        }
        guard RequestValidation.isValidMethod(method) else {
            throw GannetError(
                .invalidRequest,
                "The method \(method.debugDescription) is not an HTTP token (RFC 9110 §9.1)"
            )
        }
        var request = URLRequest(url: url)
        // A new request's method is already GET; Foundation's setter costs 4,000 instructions.
        if method != "GET" { request.httpMethod = method }
        try apply(headers, to: &request)
        return request
    }

    /// Sets `headers` on `request`, sorted by name so the result does not depend on dictionary
    /// order. `URLRequest` silently drops a value holding CR or LF, so each is checked first.
    func apply(_ headers: [String: String]?, to request: inout URLRequest) throws {
        for (field, value) in (headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard RequestValidation.isValidHeaderName(field) else {
                throw GannetError(
                    .invalidHeader,
                    "The header name \(field.debugDescription) is not an HTTP token",
                    failingURL: request.url
                )
            }
            // The value may be a credential: never echo it.
            guard RequestValidation.isValidHeaderValue(value) else {
                throw GannetError(
                    .invalidHeader,
                    "The value of the header \(field) holds CR, LF, NUL or another control character",
                    failingURL: request.url
                )
            }
            request.setValue(value, forHTTPHeaderField: field)
        }
    }

    /// Runs `failure` with `error` and no task on the completion queue, as AFNetworking does for
    /// a request that could not be built.
    func deliverEarlyFailure(_ error: any Error, to failure: (@Sendable (SessionTask?, any Error) -> Void)?) {
        guard let failure else { return }
        let queue = session.completionQueue ?? fallbackQueue
        let group = session.completionGroup
        group?.enter()
        queue.async {
            failure(nil, error)
            group?.leave()
        }
    }

    /// AFNetworking's `initWithBaseURL:`: a base URL with a non-empty path gets a trailing `/`
    /// so that `URL(string:relativeTo:)` appends paths instead of replacing the last segment.
    static func addingTrailingSlash(_ url: URL) -> URL {
        guard !url.path.isEmpty, !url.absoluteString.hasSuffix("/") else { return url }
        return url.appendingPathComponent("")
    }
}
