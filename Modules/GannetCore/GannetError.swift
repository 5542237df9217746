/// A failure that Gannet itself detected: a request it refuses to send, a server that broke a
/// limit or the protocol, a redirect it will not follow.
///
/// Transport failures reach completion handlers as `URLError` with the standard code (so code
/// written for URLSession keeps working), and a `GannetError` as the underlying error carries
/// the detail: curl's or OpenSSL's reason, the failing URL. Request validation failures are a
/// `GannetError` directly, thrown before anything is sent.
///
/// Codes are static members of an open struct, so adding one is not a breaking change:
///
/// ```swift
/// if let error = error as? GannetError, error.code == .invalidHeader { … }
/// ```
public struct GannetError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: NamedErrorCode {
        /// A short identifier, stable across releases.
        public let name: String
        init(_ name: String) { self.name = name }

        /// A header name or value holds CR, LF, NUL or another forbidden character.
        public static let invalidHeader = Code("invalidHeader")
        /// The URL or the method cannot be sent as written (control characters, spaces, no host).
        public static let invalidRequest = Code("invalidRequest")
        /// A ``SessionConfiguration`` value that cannot be used as given, such as a malformed
        /// ``SessionConfiguration/Routing`` entry or Unix socket path; nothing was sent.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// A URL whose scheme is not `http` or `https`, for a request or a redirect.
        public static let unsupportedScheme = Code("unsupportedScheme")
        /// More redirects than the configured limit, or a redirect loop.
        public static let tooManyRedirects = Code("tooManyRedirects")
        /// A redirect from `https` to `http` that the configuration does not allow.
        public static let insecureRedirect = Code("insecureRedirect")
        /// Response headers over ``SessionConfiguration/Limits`` (bytes, lines or 1xx responses).
        public static let headersTooLarge = Code("headersTooLarge")
        /// A response body over ``SessionConfiguration/Limits`` after decompression.
        public static let bodyTooLarge = Code("bodyTooLarge")
        /// The server broke HTTP framing (conflicting lengths, bad status line, NUL in a header).
        public static let protocolViolation = Code("protocolViolation")
        /// The session manager was invalidated; it takes no new tasks.
        public static let sessionInvalidated = Code("sessionInvalidated")
        /// Reading the request body (a file or a stream) failed.
        public static let bodyStreamFailed = Code("bodyStreamFailed")
        /// The server trust evaluator rejected the server in the TLS handshake.
        public static let serverTrustRejected = Code("serverTrustRejected")
        /// The transport failed; ``GannetError/transportCode`` holds libcurl's code.
        public static let transport = Code("transport")
        /// No byte moved for the request's idle timeout, or the resource timeout passed.
        public static let timedOut = Code("timedOut")
        /// A ``RequestAdapter`` threw: the request was not sent. The adapter's error is the
        /// ``GannetError/underlyingError`` (docs/interceptors.md).
        public static let requestAdaptationFailed = Code("requestAdaptationFailed")
        /// A ``RequestRetrier`` ended the task with an error of its own (its `doNotRetryWithError`),
        /// or asked to retry a request whose body cannot be sent again; the cause is the
        /// ``GannetError/underlyingError`` (docs/interceptors.md).
        public static let requestRetryFailed = Code("requestRetryFailed")
        /// A response body decoded to more than
        /// ``SessionConfiguration/Limits/maximumDecompressionRatio`` times its size on the wire.
        public static let decompressionBomb = Code("decompressionBomb")
        /// A plain-`http` request (or redirect) on a session whose trust evaluator requires
        /// HTTPS (``ServerTrustEvaluating/requiresSecureTransport``); nothing was sent.
        public static let insecureTransport = Code("insecureTransport")
        /// A finished download could not be put at its destination: the destination is an
        /// existing directory (never replaced), or the file system refused the move. The
        /// downloaded file is deleted; a file that was at the destination is left as it was.
        public static let downloadMoveFailed = Code("downloadMoveFailed")
        /// Writing the response body to the caller's `OutputStream` failed, or the stream took
        /// no byte for the request's timeout; the stream's `streamError`, if it gave one, is the
        /// ``GannetError/underlyingError``.
        public static let outputStreamFailed = Code("outputStreamFailed")
        /// Resume data that cannot resume a download: malformed, of an unknown version, for a
        /// URL that is not `http(s)`, or whose partial file is gone or shorter than recorded;
        /// also a server that resumed at another offset than the one asked for.
        public static let invalidResumeData = Code("invalidResumeData")
        /// A ``CookieJar``'s file could not be read or written: a symbolic link or something
        /// other than a regular file at its path, a file of another user or writable by others,
        /// one too large or not a cookie file, or a failed system call (named in the message).
        public static let cookieFileFailed = Code("cookieFileFailed")
    }

    /// What kind of failure this is.
    public let code: Code
    /// A one-line, human-readable reason. Never contains credentials (a URL's user part is
    /// written `***`, see docs/core.md "Errors") or more than a short excerpt of any body.
    public let message: String
    /// The URL of the request that failed, with any user and password removed.
    public let failingURL: URL?
    /// libcurl's `CURLcode` for transport failures, `nil` otherwise.
    public let transportCode: Int?
    /// The error that caused this one, such as an evaluator's rejection.
    public let underlyingError: (any Error)?
    /// For ``Code/serverTrustRejected``: what the server presented (host, port, the peer's
    /// certificate chain), AFNetworking's peer trust in its server-trust errors. `nil` otherwise.
    public let serverTrust: ServerTrust?

    /// Creates an error. Modules built on the core (serializers, security) create these too.
    public init(
        _ code: Code,
        _ message: String,
        failingURL: URL? = nil,
        transportCode: Int? = nil,
        underlyingError: (any Error)? = nil,
        serverTrust: ServerTrust? = nil
    ) {
        self.code = code
        // Messages quote URLs (a redirect's target, a URL string that does not parse) and
        // libcurl's text: whatever built it, a secret a URL holds does not stay in it.
        self.message = CredentialRedaction.text(message)
        self.failingURL = failingURL.map(URL.removingCredentials)
        self.transportCode = transportCode
        self.underlyingError = underlyingError
        self.serverTrust = serverTrust
    }

    public var description: String {
        var text = message
        if let failingURL { text += " (\(failingURL.absoluteString))" }
        return text
    }
}

extension GannetError: DescriptiveError {}
