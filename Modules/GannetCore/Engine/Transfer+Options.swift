internal import CCurl

/// The per-hop `curl_easy_setopt` calls. Options every transfer of an engine shares are set
/// once per handle (EasyHandle.applyEngineOptions).
extension Transfer {
    /// The header fields this hop sends, before the body's and libcurl's own: the request's,
    /// then the session's additional headers it does not set itself (credentials only to the
    /// caller's origin), then the cookies of the session's storage for `url`. The cache's
    /// `Vary` matching reads the same list (Transfer+Cache.swift).
    func hopHeaderFields(for url: URL) -> [HTTPField] {
        var fields: [HTTPField] = []
        var seen = Set<String>()
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            fields.append(HTTPField(name: name, value: value))
            seen.insert(name.lowercased())
        }
        for (name, value) in configuration.httpAdditionalHeaders where !seen.contains(name.lowercased()) {
            // Session-wide credentials are for the origin the caller asked for, not for
            // wherever its server redirects.
            if let callerURL, Redirection.credentialHeaders.contains(name.lowercased()),
                !Redirection.sameOrigin(callerURL, url)
            {
                continue
            }
            fields.append(HTTPField(name: name, value: value))
        }
        // Cookies from the session's storage, for this hop's URL; a caller's own `Cookie`
        // header wins (docs/auth-cookies-cache.md).
        if let storage = cookieStorage, !fields.contains(where: { ASCII.equalsIgnoringCase($0.name, "cookie") }),
            let cookie = CookieRules.header(for: url, from: storage)
        {
            fields.append(HTTPField(name: "Cookie", value: cookie))
        }
        return fields
    }

    /// Sets every option of the current hop on `easy`. Throws for a request that must not be
    /// sent (validation) or a body that cannot be opened.
    func configure(_ easy: EasyHandle) throws {
        guard let url = request.url else {
            throw GannetError(.invalidRequest, "The request has no URL")
        }
        let method = request.httpMethod ?? "GET"
        var fields = hopHeaderFields(for: url).map { ($0.name, $0.value) }
        try RequestValidation.validate(method: method, url: url, headers: fields)
        // A Unix socket path that cannot be used fails the task here, before anything is sent,
        // rather than as a connect error (SessionConfiguration+Routing.swift).
        try configuration.routing.validate()
        // A revalidating hop sends the stored response's validators (Transfer+Cache.swift).
        fields += cacheConditions.map { ($0.name, $0.value) }
        // Only a cache reads the hop's times (a stored response's age).
        if configuration.urlCache != nil { machine.hop.requestTime = Date() }
        if serverTrustEvaluator?.requiresSecureTransport == true, url.scheme?.lowercased() != "https" {
            // Enforced here, where the evaluator is used, for every hop: a pinning manager
            // must not send a request (or follow a redirect) in clear (docs/security.md).
            let error = GannetError(
                .insecureTransport,
                "The trust evaluator requires HTTPS; refusing to send \(url.scheme ?? "") in clear",
                failingURL: url
            )
            throw TransportError.urlError(gannet: error, url: url)
        }

        handle.easy = easy
        let me = Unmanaged.passUnretained(self).toOpaque()
        // Handles are reused without curl_easy_reset: the options every transfer of this engine
        // shares were set once (EasyHandle.applyEngineOptions); each option a request may
        // change is set here every time, to its default when the request does not use it.
        easy.set(CURLOPT_URL, url.absoluteString)
        // Waiting to learn whether a connection multiplexes pays only where ALPN or prior
        // knowledge tells at connect time; on cleartext HTTP/1.1 libcurl learns it from the first
        // response and leaves every transfer added meanwhile pending until that exchange ends.
        easy.set(
            CURLOPT_PIPEWAIT,
            url.scheme?.lowercased() == "https" || configuration.httpVersion == .http2PriorKnowledge
        )
        easy.set(CURLOPT_PRIVATE, pointer: me)
        handle.attachErrorBuffer(to: easy)
        easy.set(CURLOPT_HEADERDATA, pointer: me)
        easy.set(CURLOPT_WRITEDATA, pointer: me)
        easy.set(CURLOPT_READDATA, pointer: me)
        easy.set(CURLOPT_HTTPGET, true)
        easy.set(CURLOPT_FORBID_REUSE, false)
        easy.set(CURLOPT_CUSTOMREQUEST, nil as String?)
        easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: -1)
        easy.set(CURLOPT_MAX_SEND_SPEED_LARGE, offset: 0)
        // Each sink reads in blocks of its own size (BodySink.readBufferSize).
        easy.set(CURLOPT_BUFFERSIZE, sink.readBufferSize)
        TLSVerification.configure(easy, transfer: self, evaluates: evaluatesTrust)
        configureAuthentication(easy)

        let connectMs = Int(min(configuration.connectTimeout, Double(counters.idleTimeout) / 1e9) * 1000)
        easy.set(CURLOPT_CONNECTTIMEOUT_MS, max(connectMs, 1))
        let elapsed = counters.elapsed(now: MonotonicClock.nanoseconds())
        let remaining = configuration.timeoutIntervalForResource - elapsed
        if remaining <= 0 {
            throw TransportError.urlError(
                gannet: GannetError(.timedOut, "The resource timeout passed", failingURL: url),
                url: url
            )
        }
        easy.set(CURLOPT_TIMEOUT_MS, remaining < 1e9 ? max(Int(remaining * 1000), 1) : 0)

        // curl waits up to a second for `100 Continue` before sending a large body; Gannet
        // sends at once, as URLSession does.
        var removed = ["Expect"]
        try renewBodyStream()
        let expectedToSend = try configureBody(easy, method: method, fields: &fields, removed: &removed)

        // A caller's `Proxy-Authorization` is for the proxy: libcurl's proxy list reaches the
        // proxy only (a plain proxied request and a tunnel's CONNECT), never the origin inside a
        // tunnel, and no one when no proxy is used (docs/engine.md, "A transfer's life", step 3).
        let proxyFields = fields.filter { ASCII.equalsIgnoringCase($0.0, "proxy-authorization") }
        fields.removeAll { ASCII.equalsIgnoringCase($0.0, "proxy-authorization") }
        // `Name;` sends an empty value, `Name:` removes a header libcurl would add itself.
        var lines = fields.map { name, value in value.isEmpty ? "\(name);" : "\(name): \(value)" }
        lines += removed.map { "\($0):" }
        let proxyList = proxyFields.isEmpty ? nil : HeaderList(proxyFields.map { "\($0.0): \($0.1)" })
        handle.attach(to: easy, headers: HeaderList(lines), proxyHeaders: proxyList)
        observer.transferWillSend(request, expectedToSend: expectedToSend)
        touch()
    }

    /// Sets the method and body options; returns the body length to report (`-1` when
    /// unknown), or `nil` when the hop sends no body.
    private func configureBody(
        _ easy: EasyHandle,
        method: String,
        fields: inout [(String, String)],
        removed: inout [String]
    ) throws -> Int64? {
        let upper = method.uppercased()
        let declaredLength = fields.first { $0.0.lowercased() == "content-length" }.flatMap { Int64($0.1) }
        // libcurl writes Content-Length (or chunked framing) itself from the size given here.
        fields.removeAll { ["content-length", "transfer-encoding"].contains($0.0.lowercased()) }
        if upper == "HEAD" {
            easy.set(CURLOPT_NOBODY, true)
            if method != "HEAD" { easy.set(CURLOPT_CUSTOMREQUEST, method) }
            return nil
        }
        if body.source == nil && upper == "POST" { body.source = .data(Data()) }
        guard let source = body.source else {
            if method != "GET" { easy.set(CURLOPT_CUSTOMREQUEST, method) }
            counters.expectedToSend = 0
            return nil
        }
        machine.hop.reader = try source.makeReader { [weak self, engine] in
            // From the body stream's thread: the read callback paused, bytes are ready now.
            if let self { engine.submit(.transfer(self, .resumeSending)) }
        }
        let length = source.knownLength(declared: declaredLength)
        counters.expectedToSend = length ?? -1
        easy.set(CURLOPT_POST, true)
        if !fields.contains(where: { ASCII.equalsIgnoringCase($0.0, "Content-Type") }) {
            // libcurl labels every POST body as a form; send no Content-Type the caller did not set.
            removed.append("Content-Type")
        }
        easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: length ?? -1)
        if case .stream(let stream) = source, let paced = stream as? any RateLimitedBodyStream,
            let rate = paced.maximumBytesPerSecond, rate > 0
        {
            easy.set(CURLOPT_MAX_SEND_SPEED_LARGE, offset: rate)
        }
        if method != "POST" { easy.set(CURLOPT_CUSTOMREQUEST, method) }
        return length ?? -1
    }
}
