/// One request and its response within a transfer: the first request, each redirect followed,
/// each authentication retry. Everything that belongs to one exchange lives here, in the
/// ``TransferStateMachine`` beside its state, so a new hop is a new value and nothing of the
/// previous one is carried over by mistake (docs/engine.md, "A transfer's shape"). What spans the
/// hops (the body source, the sink, byte counts received, metrics) stays in ``Transfer``.
struct Hop {
    /// What a hop that ends by following leads to: a redirect's target, or the same request
    /// again with the credential a challenge asked for.
    struct Next: Equatable {
        var request: URLRequest
        /// Sent with the next hop only (a redirect after it sends none).
        var credential: HopCredential?
        /// A redirect counts against the limit; an authentication retry does not.
        var countsAsRedirect: Bool
        /// Bytes of this hop's body read and thrown away so far.
        var discardedBytes = 0
        /// The body passed ``TransferStateMachine/redirectBodyLimit`` and the hop was refused
        /// the rest: libcurl ends it with an error that is not a failure.
        var cutShort = false

        static func redirect(to request: URLRequest) -> Next {
            Next(request: request, credential: nil, countsAsRedirect: true)
        }

        static func retry(_ request: URLRequest, with credential: HopCredential) -> Next {
            Next(request: request, credential: credential, countsAsRedirect: false)
        }
    }

    /// The request this hop sends.
    let request: URLRequest
    /// The request's URL, read once: `URLRequest.url` goes through Foundation's class each time.
    let url: URL?
    /// Whether the request goes to an `https` URL: read once per hop, by the close_notify rule
    /// (``HeadPolicy/truncation(of:)``) and the connection options (``HopOptions``).
    let usesTLS: Bool
    /// The request's `httpShouldHandleCookies`, read once: asked when the hop is configured and
    /// again when its head arrives, it went through Foundation's class each time (about 150
    /// instructions a read, docs/performance.md).
    let handlesCookies: Bool
    /// The credential libcurl answers this hop's challenge with (``AuthenticationRetries``).
    let credential: HopCredential?
    var parser: ResponseHeadParser
    /// The response head of this hop, once complete (a `304` already replaced by the entry it
    /// confirmed, a multipart part's head while parts are split).
    var head: ResponseHead? {
        didSet { lazy = nil }
    }
    /// Built from `head` only when a hook needs it during the transfer; otherwise the
    /// processing queue builds it, off the engine thread.
    var response: HTTPURLResponse?
    /// The response of `head` as one object for the task, its event monitors and its outcome
    /// (``lazyResponse()``); dropped when the head changes.
    private var lazy: LazyResponse?
    /// What the response cache does for this hop (Transfer+Cache.swift).
    var cache: CacheStep?
    /// Whether the response cache takes part in this hop. Asked in place: `cache != nil` from
    /// the transfer copied the step, through the runtime's value witnesses (it holds
    /// Foundation's values), and destroyed it, about 200 instructions a hop
    /// (docs/performance.md).
    var consultsCache: Bool {
        if case .none = cache { return false }
        return true
    }
    /// Reads the request body for libcurl's read callback.
    var reader: (any BodyReader)?
    var sentBytes: Int64 = 0
    /// Times libcurl began sending this request (`CURLOPT_PREREQFUNCTION`).
    var sendAttempts = 0
    /// The server ended this hop's TLS connection with close_notify (`tlsInfoCallback`).
    var closeNotifyArrived = false
    /// libcurl answers Digest and NTLM after a `401` of its own, which is not the response: set
    /// for a hop whose credential is for one of them.
    var awaitsAuthenticationProbe: Bool
    /// For a body with a `Content-Encoding` libcurl decodes: what to add to libcurl's count of
    /// wire bytes for the decompression-ratio check (a chunked body is counted after it is
    /// decoded, so up to one read behind); `nil` when the body is not decoded.
    var encodedWireSlack: Int64?
    /// When the request was sent and its head arrived, by the wall clock: a stored response's
    /// age is computed from them (RFC 9111 §4.2.3). Set only with a cache.
    var requestTime = Date.distantPast
    var responseTime = Date.distantPast

    init(request: URLRequest, credential: HopCredential? = nil, limits: SessionConfiguration.Limits) {
        self.request = request
        url = request.url
        usesTLS = url.map(Self.isHTTPS) ?? false
        handlesCookies = request.httpShouldHandleCookies
        self.credential = credential
        awaitsAuthenticationProbe = credential?.hasIntermediateChallenge == true
        parser = ResponseHeadParser(limits: limits)
    }

    /// Whether `url`'s scheme is `https`, in any case, read from the start of its absolute
    /// string: Foundation's `scheme` makes a `String` of it (about 430 instructions a hop,
    /// docs/performance.md).
    static func isHTTPS(_ url: URL) -> Bool {
        var string = url.absoluteString
        return string.withUTF8 { bytes in
            bytes.count >= 6
                && ("https:" as StaticString).withUTF8Buffer {
                    ASCII.equalsIgnoringCase(UnsafeBufferPointer(rebasing: bytes[0..<6]), $0)
                }
        }
    }

    /// The response of this hop as an `HTTPURLResponse`, built on first use (a hook needs it).
    mutating func materializedResponse() -> HTTPURLResponse? {
        if response == nil { response = lazyResponse()?.value }
        return response
    }

    /// The hop's response once its head arrived (`nil` before, or without a URL): the one built
    /// for a hook, else one built only when someone reads it. Made once for each head and
    /// handed to the task, its event monitors and its outcome alike, so one `HTTPURLResponse` at
    /// most is built for it (each `LazyResponse` built its own, and three were made for every
    /// response; docs/performance.md).
    mutating func lazyResponse() -> LazyResponse? {
        if let lazy { return lazy }
        guard let head, let url else { return nil }
        let made = response.map { LazyResponse(prebuilt: $0, head: head) } ?? LazyResponse(head: head, url: url)
        lazy = made
        return made
    }

    /// The hop that follows this one to `next`.
    func following(_ next: Next) -> Hop {
        Hop(request: next.request, credential: next.credential, limits: parser.limits)
    }

    /// Counts a send of this hop's request (libcurl's `CURLOPT_PREREQFUNCTION`), and returns why
    /// it must not go out: libcurl sends it again on a new connection when a reused one closes
    /// before any response byte, and the server may have acted on the first copy, so a method
    /// that is not idempotent (RFC 9110 §9.2.2) is not replayed (docs/engine.md, "Connection
    /// reuse").
    mutating func countSendAttempt() -> GannetError? {
        sendAttempts += 1
        guard sendAttempts > 1 else { return nil }
        let method = (request.httpMethod ?? "GET").uppercased()
        guard !RetryPolicy.defaultRetryableHTTPMethods.contains(method) else { return nil }
        return GannetError(
            .transport,
            "The reused connection closed before a response; a \(method) request is not sent again",
            failingURL: request.url
        )
    }
}
