internal import CCurl

/// What a hop's request and the session's configuration make of an easy handle: the header
/// fields sent, the refusals before anything is sent, and the per-hop `curl_easy_setopt` calls.
/// Configuring libcurl is not the transfer's job: ``Transfer/configure(_:)`` gathers what only
/// it knows (the hop, the body, the callbacks' context) and hands it here. Options every
/// transfer of an engine shares are set once per handle (EasyHandle.applyEngineOptions); each
/// option a request may change is set here every time, to its default when the request does
/// not use it, since handles are reused without `curl_easy_reset`. The pure parts
/// (``headerFields(request:url:additionalHeaders:cookieStorage:callerURL:)``,
/// ``check(url:method:fields:routing:resourceTimeout:requiresSecureTransport:elapsed:)``,
/// ``headerLines(_:removing:)``) are tested in HopOptionsTests.
enum HopOptions {
    /// The header fields a hop to `url` sends, before the body's and libcurl's own: the
    /// request's, then the session's additional headers it does not set itself (credentials only
    /// to `callerURL`'s origin, the URL the caller asked for), then the cookies of the session's
    /// storage for `url` (`cookieStorage`: `nil` when the request does not handle cookies). The
    /// cache's `Vary` matching reads the same list.
    ///
    /// Like ``check(url:method:fields:routing:resourceTimeout:requiresSecureTransport:elapsed:)``
    /// and ``setRequest(_:url:usesTLS:httpVersion:connectTimeout:proxy:context:readBufferSize:idleTimeout:remaining:)``,
    /// it takes the settings it reads, not the whole configuration: a transfer reads its
    /// configuration from the engine's shared box, and passing it whole copied it at every call,
    /// about 315 instructions each, three a request (docs/performance.md).
    static func headerFields(
        request: URLRequest,
        url: URL,
        additionalHeaders: [String: String],
        cookieStorage: (any CookieStoring)?,
        callerURL: URL?
    ) -> [HTTPField] {
        var fields: [HTTPField] = []
        let own = request.allHTTPHeaderFields ?? [:]
        if !own.isEmpty || !additionalHeaders.isEmpty {
            fields.reserveCapacity(own.count + additionalHeaders.count + 1)
        }
        for (name, value) in own { fields.append(HTTPField(name: name, value: value)) }
        // The caller's fields are few: comparing names in place, where a set of lowercased
        // names cost two allocations and a hash for each field, about 900 instructions a field
        // (callgrind, docs/performance.md).
        let callerFields = fields
        for (name, value) in additionalHeaders
        where !callerFields.contains(where: { ASCII.equalsIgnoringCase($0.name, name) }) {
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
        if let storage = cookieStorage,
            !fields.contains(where: { ASCII.equalsIgnoringCase($0.name, "cookie") }),
            let cookie = CookieRules.header(for: url, from: storage)
        {
            fields.append(HTTPField(name: "Cookie", value: cookie))
        }
        return fields
    }

    /// Throws for a hop that must not be sent: invalid fields, a Unix socket path that cannot be
    /// used (before anything is sent, rather than as a connect error), plain `http` under an
    /// evaluator that requires HTTPS, or a resource timeout (`resourceTimeout` seconds) already
    /// passed after `elapsed` seconds. Returns the seconds left of the resource timeout.
    static func check(
        url: URL,
        method: String,
        fields: [HTTPField],
        routing: SessionConfiguration.Routing,
        resourceTimeout: TimeInterval,
        requiresSecureTransport: Bool,
        elapsed: Double
    ) throws -> Double {
        try RequestValidation.validate(method: method, url: url, headers: fields.lazy.map { ($0.name, $0.value) })
        try routing.validate()
        if requiresSecureTransport, url.scheme?.lowercased() != "https" {
            // Enforced where the evaluator is used, for every hop: a pinning manager must not
            // send a request (or follow a redirect) in clear (docs/security.md).
            let error = GannetError(
                .insecureTransport,
                "The trust evaluator requires HTTPS; refusing to send \(url.scheme ?? "") in clear",
                failingURL: url
            )
            throw TransportError.urlError(gannet: error, url: url)
        }
        let remaining = resourceTimeout - elapsed
        if remaining <= 0 {
            throw TransportError.urlError(
                gannet: GannetError(.timedOut, "The resource timeout passed", failingURL: url),
                url: url
            )
        }
        return remaining
    }

    /// Sets the request's own options: its URL (`usesTLS` when it is `https`), the callbacks'
    /// `context` (the transfer), the read size of its sink, and its timeouts (`connectTimeout`,
    /// capped by `idleTimeout` in nanoseconds; `remaining` seconds of the resource timeout).
    static func setRequest(
        _ easy: EasyHandle,
        url: URL,
        usesTLS: Bool,
        httpVersion: SessionConfiguration.HTTPVersion,
        connectTimeout: TimeInterval,
        proxy: ProxyRoute,
        context: UnsafeMutableRawPointer,
        readBufferSize: Int,
        idleTimeout: UInt64,
        remaining: Double
    ) {
        easy.set(CURLOPT_URL, url.absoluteString)
        // The handle has the http proxy and the bypass list (applyEngineOptions).
        if proxy.differsByScheme { easy.set(CURLOPT_PROXY, proxy.proxy(usesTLS: usesTLS)) }
        // Waiting to learn whether a connection multiplexes pays only where ALPN or prior
        // knowledge tells at connect time; on cleartext HTTP/1.1 libcurl learns it from the first
        // response and leaves every transfer added meanwhile pending until that exchange ends.
        easy.set(CURLOPT_PIPEWAIT, usesTLS || httpVersion == .http2PriorKnowledge)
        easy.set(CURLOPT_PRIVATE, pointer: context)
        easy.set(CURLOPT_HEADERDATA, pointer: context)
        easy.set(CURLOPT_WRITEDATA, pointer: context)
        easy.set(CURLOPT_READDATA, pointer: context)
        easy.set(CURLOPT_HTTPGET, true)
        easy.set(CURLOPT_FORBID_REUSE, false)
        easy.set(CURLOPT_CUSTOMREQUEST, nil as String?)
        easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: -1)
        easy.set(CURLOPT_MAX_SEND_SPEED_LARGE, offset: 0)
        // Each sink reads in blocks of its own size (BodySink.readBufferSize).
        easy.set(CURLOPT_BUFFERSIZE, readBufferSize)
        let connectMs = Int(min(connectTimeout, Double(idleTimeout) / 1e9) * 1000)
        easy.set(CURLOPT_CONNECTTIMEOUT_MS, max(connectMs, 1))
        easy.set(CURLOPT_TIMEOUT_MS, remaining < 1e9 ? max(Int(remaining * 1000), 1) : 0)
    }

    /// Sets (or clears) the hop's credentials: libcurl computes Basic, Digest or NTLM for the
    /// origin or the proxy the credential is for, and nothing for the other.
    static func setCredential(_ easy: EasyHandle, _ credential: HopCredential?) {
        // A hop without a credential on a handle that carries none leaves its six options at
        // their defaults: set again at every hop, they cost about 550 instructions a request
        // (docs/performance.md). A handle that carried one is cleared, so no credential
        // outlives its hop on a reused handle (AuthenticationChallengeTests).
        if credential == nil, !easy.carriesCredential { return }
        let basic = 1 << 0
        easy.set(CURLOPT_HTTPAUTH, credential.map { $0.proxy ? basic : $0.curlMask } ?? basic)
        easy.set(CURLOPT_USERNAME, credential.flatMap { $0.proxy ? nil : $0.user })
        easy.set(CURLOPT_PASSWORD, credential.flatMap { $0.proxy ? nil : $0.password })
        easy.set(CURLOPT_PROXYAUTH, credential.map { $0.proxy ? $0.curlMask : basic } ?? basic)
        easy.set(CURLOPT_PROXYUSERNAME, credential.flatMap { $0.proxy ? $0.user : nil })
        easy.set(CURLOPT_PROXYPASSWORD, credential.flatMap { $0.proxy ? $0.password : nil })
        easy.carriesCredential = credential != nil
    }

    /// Prepares the handle of a hop that is followed (a redirect, an authentication retry). A
    /// server that answers so before reading the request's body may close the connection once
    /// it has answered (gunicorn does). libcurl would reuse it for the next hop, find it dead,
    /// and could only retry on a new one by rewinding the body, which Gannet never does: a body
    /// sent twice may be acted on twice. So a connection whose hop sent a body (`sentBody`: a
    /// head the cache gave sent nothing) is not kept (`CURLOPT_FORBID_REUSE`, read when the hop
    /// ends); the next hop opens its own (EarlyRedirectTests).
    static func prepareToFollow(_ easy: EasyHandle?, sentBody: Bool) {
        if sentBody { easy?.set(CURLOPT_FORBID_REUSE, true) }
    }

    /// Sets the method and body options for `source` (``setBody(_:method:source:fields:removed:)``,
    /// which takes the framing fields out of `fields`, in place) and makes the header lists
    /// libcurl sends from `fields` (``headerLines(_:removing:first:)``), without `Expect`: curl
    /// waits up to a second for `100 Continue` before sending a large body; Gannet sends at once,
    /// as URLSession does. `acceptEncodingLine` (the line offering the codings libcurl decodes,
    /// CurlGlobal.acceptEncodingLine, when the session decompresses) is sent unless `fields` has
    /// its own `Accept-Encoding` (CurlGlobal.contentCodings says why Gannet writes this line, not
    /// libcurl). Returns the body length to report (`nil` when the hop sends no body) and the
    /// lists for the origin and for the proxy only. `Expect` is removed only from a hop that
    /// sends a body: libcurl writes it for nothing else, and each line of the list costs libcurl
    /// a comparison for every header it considers adding (docs/performance.md).
    static func setBodyAndHeaders(
        _ easy: EasyHandle,
        method: String,
        source: BodySource?,
        fields: inout [HTTPField],
        acceptEncodingLine: String?
    ) -> (expectedToSend: Int64?, headers: HeaderList, proxyHeaders: HeaderList?) {
        var removed: [String] = []
        let expectedToSend = setBody(easy, method: method, source: source, fields: &fields, removed: &removed)
        if expectedToSend != nil { removed.insert("Expect", at: 0) }
        // First, where libcurl put its own: after `Accept`, before the caller's fields.
        let first =
            acceptEncodingLine.flatMap { line in
                line.isEmpty || fields.contains(where: { ASCII.equalsIgnoringCase($0.name, "accept-encoding") })
                    ? nil : line
            }
        let lines = headerLines(fields, removing: removed, first: first)
        return (expectedToSend, HeaderList(lines.origin), lines.proxy.isEmpty ? nil : HeaderList(lines.proxy))
    }

    /// Sets the method and body options for `source` (`nil`: no body); removes the framing
    /// fields libcurl writes itself from `fields`, and adds to `removed` the fields libcurl
    /// would add that the caller did not ask for. Returns the body length to report (`-1` when
    /// unknown), or `nil` when the hop sends no body.
    static func setBody(
        _ easy: EasyHandle,
        method: String,
        source: BodySource?,
        fields: inout [HTTPField],
        removed: inout [String]
    ) -> Int64? {
        let declaredLength = fields.first { ASCII.equalsIgnoringCase($0.name, "content-length") }.flatMap {
            Int64($0.value)
        }
        // libcurl writes Content-Length (or chunked framing) itself from the size given here.
        fields.removeAll {
            ASCII.equalsIgnoringCase($0.name, "content-length")
                || ASCII.equalsIgnoringCase($0.name, "transfer-encoding")
        }
        if ASCII.equalsIgnoringCase(method, "HEAD") {
            easy.set(CURLOPT_NOBODY, true)
            if method != "HEAD" { easy.set(CURLOPT_CUSTOMREQUEST, method) }
            return nil
        }
        guard let source else {
            if method != "GET" { easy.set(CURLOPT_CUSTOMREQUEST, method) }
            return nil
        }
        let length = source.knownLength(declared: declaredLength)
        easy.set(CURLOPT_POST, true)
        if !fields.contains(where: { ASCII.equalsIgnoringCase($0.name, "Content-Type") }) {
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

    /// The header lines libcurl sends to the origin, and those it sends to a proxy only. `Name;`
    /// sends an empty value, `Name:` removes a header libcurl would add itself (each of
    /// `removed`). A caller's `Proxy-Authorization` is for the proxy: libcurl's proxy list
    /// reaches the proxy only (a plain proxied request and a tunnel's CONNECT), never the origin
    /// inside a tunnel, and no one when no proxy is used (docs/engine.md, "A transfer's life").
    /// `first`, when given, leads the origin's lines: inserted afterwards, it reallocated the
    /// list (a handle's configuration 7,556 instructions, then 7,415; callgrind,
    /// docs/performance.md).
    static func headerLines(
        _ fields: [HTTPField],
        removing removed: [String],
        first: String? = nil
    ) -> (origin: [String], proxy: [String]) {
        var origin: [String] = []
        var proxy: [String] = []
        origin.reserveCapacity(fields.count + removed.count + (first == nil ? 0 : 1))
        if let first { origin.append(first) }
        for field in fields {
            if ASCII.equalsIgnoringCase(field.name, "proxy-authorization") {
                proxy.append(line(field.name, ": ", field.value))
            } else {
                origin.append(field.value.isEmpty ? line(field.name, ";", "") : line(field.name, ": ", field.value))
            }
        }
        for name in removed { origin.append(line(name, ":", "")) }
        return (origin, proxy)
    }

    /// `name`, `separator` and `value` copied into one allocation of the right size. Appended to
    /// a `String` reserved to that size, each part cost about 320 instructions: two lines, 3,129
    /// instructions a request, now 1,831 (callgrind, docs/performance.md).
    private static func line(_ name: String, _ separator: String, _ value: String) -> String {
        let count = name.utf8.count + separator.utf8.count + value.utf8.count
        return String(unsafeUninitializedCapacity: count) { buffer in
            copy(value, into: buffer, at: copy(separator, into: buffer, at: copy(name, into: buffer, at: 0)))
        }
    }

    /// Copies `part`'s UTF-8 into `buffer` from `offset`; returns the offset after it.
    private static func copy(_ part: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at offset: Int) -> Int {
        var part = part
        return part.withUTF8 { bytes in
            if let source = bytes.baseAddress, let target = buffer.baseAddress {
                (target + offset).initialize(from: source, count: bytes.count)
            }
            return offset + bytes.count
        }
    }
}
