internal import CCurl
internal import Synchronization

/// The engine-side state of one task: the request of the current hop, the easy handle, the
/// response head, the body. Lives on the engine thread only; the task talks to it through
/// engine commands.
final class Transfer: @unchecked Sendable {
    // @unchecked: all mutable state is read and written on the engine thread only (engine
    // commands and the libcurl callbacks it drives). Other threads hold a Transfer only as a
    // token inside an engine command or the task's storage, and never touch its state.
    let task: SessionTask
    unowned let engine: CurlEngine
    let hooks: SessionHooks
    /// Numbers transfers for the life of the process; never reused (docs/engine.md).
    let serial = Transfer.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)
    var configuration: SessionConfiguration { engine.configuration }

    /// The request of the current hop.
    private(set) var request: URLRequest
    private var bodySource: BodySource?
    private(set) var easy: EasyHandle?
    private var headerList: HeaderList?
    private var reader: (any BodyReader)?
    private var parser: ResponseHeadParser
    private var headComplete = false
    private var redirectTarget: URLRequest?
    private var redirectBodyBytes = 0
    private var followWithoutBody = false
    private var redirectCount = 0
    private var head: ResponseHead?
    /// Built from `head` only when a hook needs it during the transfer; otherwise the
    /// processing queue builds it, off the engine thread.
    private var response: HTTPURLResponse?
    private var body = Data()
    private var receivedBytes: Int64 = 0
    private var sentBytes: Int64 = 0
    /// Times libcurl began sending this hop's request (`CURLOPT_PREREQFUNCTION`).
    private var sendAttempts = 0
    /// The server ended this hop's TLS connection with close_notify (`tlsInfoCallback`).
    private var closeNotifyArrived = false
    private var expectedToSend: Int64 = -1
    /// Why Gannet stopped the transfer from inside a callback, if it did.
    private var stopError: (any Error)?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var lastProgressReport: UInt64 = 0
    private var metrics = TaskMetrics()
    private let startedAt: UInt64
    private var isFinished = false

    var isSuspended = false
    var isAwaitingDisposition = false
    /// Paused because a byte-stream consumer has not caught up.
    var isBackpressured = false
    private var fileSink: FileSink?
    /// For a body with a `Content-Encoding` libcurl decodes: what to add to libcurl's count of
    /// wire bytes for the decompression-ratio check (a chunked body is counted after it is
    /// decoded, so up to one read behind); `nil` when the body is not decoded.
    private var encodedWireSlack: Int64?
    /// `CURLOPT_BUFFERSIZE` of the current hop: the most libcurl reads from the socket at once.
    private var readBufferSize = 16 * 1024
    private(set) var lastActivity: UInt64
    /// Idle timeout in nanoseconds: the request's `timeoutInterval`, else the configuration's.
    let idleTimeout: UInt64

    /// `request` is the adapted request of this attempt (docs/interceptors.md); `nil` sends the
    /// task's original request.
    init(task: SessionTask, engine: CurlEngine, hooks: SessionHooks, request: URLRequest? = nil) {
        self.task = task
        self.engine = engine
        self.hooks = hooks
        let request = request ?? task.originalRequest ?? URLRequest(url: URL(string: "about:blank")!)
        self.request = request
        bodySource = task.body
        parser = ResponseHeadParser(limits: engine.configuration.limits)
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
        // URLRequest's default is 60 s, so only a different value says the caller chose it;
        // otherwise the session's `timeoutIntervalForRequest` applies.
        let chosen = request.timeoutInterval > 0 && request.timeoutInterval != Self.defaultRequestTimeout
        let seconds = chosen ? request.timeoutInterval : engine.configuration.timeoutIntervalForRequest
        idleTimeout = UInt64(max(seconds, 0.001) * 1e9)
        startedAt = MonotonicClock.nanoseconds()
        lastActivity = startedAt
    }

    deinit {
        errorBuffer.deallocate()
    }

    static let defaultRequestTimeout = URLRequest(url: URL(fileURLWithPath: "/")).timeoutInterval

    func touch() { lastActivity = MonotonicClock.nanoseconds() }

    func isIdleExpired(now: UInt64) -> Bool {
        !isSuspended && !isAwaitingDisposition && !isBackpressured && now &- lastActivity > idleTimeout
    }

    func releaseHandle() -> EasyHandle? {
        defer {
            easy = nil
            headerList = nil
        }
        return easy
    }

    // MARK: Hops

    /// Resets the per-hop state for the redirect target `next`.
    func beginHop(_ next: URLRequest) {
        let method = (next.httpMethod ?? "GET").uppercased()
        if method == "GET" || method == "HEAD" {
            bodySource = nil
        } else if let data = next.httpBody {
            bodySource = .data(data)
        } else if let stream = next.httpBodyStream, request.httpBodyStream !== stream {
            bodySource = .stream(stream)
        }
        request = next
        parser = ResponseHeadParser(limits: configuration.limits)
        headComplete = false
        redirectTarget = nil
        redirectBodyBytes = 0
        followWithoutBody = false
        response = nil
        head = nil
        reader = nil
        stopError = nil
        encodedWireSlack = nil
        sentBytes = 0
        sendAttempts = 0
        closeNotifyArrived = false
        task.update { $0.currentRequest = next }
    }

    /// Decides what follows a hop that libcurl ended with `code`: the next hop's request, or
    /// `nil` once the task has been finished.
    func hopEnded(_ code: CURLcode) -> URLRequest? {
        if let next = redirectTarget, code == CURLE_OK || followWithoutBody {
            redirectCount += 1
            metrics.redirectCount = redirectCount
            return next
        }
        if code == CURLE_OK, let stopError {
            // A callback refused bytes that libcurl replayed after an unpause and did not count
            // as a failure (see CurlEngine.unpause).
            finish(error: stopError)
            return nil
        }
        if code == CURLE_OK {
            if let truncation = truncationWithoutCloseNotify() {
                finish(error: truncation)
            } else if head != nil {
                finish(
                    outcome: TransferOutcome(
                        request: request,
                        response: response,
                        head: head,
                        data: body,
                        error: nil,
                        metrics: metrics
                    )
                )
            } else {
                let error = GannetError(
                    .protocolViolation,
                    "The server closed the connection without a complete response",
                    failingURL: request.url
                )
                finish(error: TransportError.urlError(gannet: error, url: request.url))
            }
            return nil
        }
        let detail = String(cString: errorBuffer)
        if stopError == nil, headComplete, encodedWireSlack != nil, code == CURLE_OUT_OF_MEMORY {
            // libcurl refuses to hold more than 64 MiB decoded from one paused 32 KiB read of a
            // byte stream: over 2,000:1, a bomb by any limit.
            let error = GannetError(
                .decompressionBomb,
                "One read of the response body decoded to more than libcurl's 64 MiB pause buffer",
                failingURL: request.url,
                transportCode: Int(code.rawValue)
            )
            finish(error: TransportError.urlError(gannet: error, url: request.url))
            return nil
        }
        if stopError == nil, !headComplete, code == CURLE_OUT_OF_MEMORY {
            // libcurl refuses a header line over 100 KiB with "Out of memory".
            let error = GannetError(
                .headersTooLarge,
                "A response header line exceeds libcurl's 100 KiB limit",
                failingURL: request.url,
                transportCode: Int(code.rawValue)
            )
            finish(error: TransportError.urlError(gannet: error, url: request.url))
            return nil
        }
        finish(error: stopError ?? TransportError.urlError(curlCode: code, detail: detail, url: request.url))
        return nil
    }

    /// libcurl failed to replay held-back bytes when the transfer was unpaused: ends the task
    /// with what a callback recorded, else with libcurl's code.
    func unpauseFailed(_ code: CURLcode) {
        finish(
            error: stopError
                ?? TransportError.urlError(curlCode: code, detail: String(cString: errorBuffer), url: request.url)
        )
    }

    /// Completes the task with an error. Safe to call once; later calls are ignored.
    func finish(error: any Error) {
        finish(
            outcome: TransferOutcome(
                request: request,
                response: response,
                head: head,
                data: head == nil ? nil : body,
                error: error,
                metrics: metrics
            )
        )
    }

    private func finish(outcome: TransferOutcome) {
        guard !isFinished else { return }
        isFinished = true
        var outcome = outcome
        if let fileSink {
            if outcome.error == nil {
                fileSink.closeFile()
                outcome.fileURL = fileSink.url
                outcome.data = nil
            } else {
                fileSink.discard()
            }
            self.fileSink = nil
        }
        if case .stream(let stream) = task.sink {
            if let head, outcome.error == nil, let url = request.url {
                stream.deliverHead(LazyResponse(head: head, url: url))
            }
            stream.finish(outcome.error)
            // Breaks the task → sink → state → task cycle once nothing can resume reading.
            stream.task.withLock { $0 = nil }
            outcome.data = nil
        }
        metrics.totalDuration = Double(MonotonicClock.nanoseconds() &- startedAt) / 1e9
        metrics.countOfRequestBodyBytesSent = sentBytes
        metrics.countOfResponseBodyBytesReceived = receivedBytes
        reportProgress(final: true)
        reader = nil
        outcome.metrics = metrics
        task.complete(outcome)
    }

    // MARK: Configuring a hop

    /// Sets every option of the current hop on `easy`. Throws for a request that must not be
    /// sent (validation) or a body that cannot be opened.
    func configure(_ easy: EasyHandle) throws {
        guard let url = request.url else {
            throw GannetError(.invalidRequest, "The request has no URL")
        }
        let method = request.httpMethod ?? "GET"
        var fields: [(String, String)] = []
        var seen = Set<String>()
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            fields.append((name, value))
            seen.insert(name.lowercased())
        }
        let callerURL = task.originalRequest?.url
        for (name, value) in configuration.httpAdditionalHeaders where !seen.contains(name.lowercased()) {
            // Session-wide credentials are for the origin the caller asked for, not for
            // wherever its server redirects.
            if let callerURL, Redirection.credentialHeaders.contains(name.lowercased()),
                !Redirection.sameOrigin(callerURL, url)
            {
                continue
            }
            fields.append((name, value))
        }
        try RequestValidation.validate(method: method, url: url, headers: fields)
        if configuration.tls.serverTrustEvaluator?.requiresSecureTransport == true, url.scheme?.lowercased() != "https"
        {
            // Enforced here, where the evaluator is used, for every hop: a pinning manager
            // must not send a request (or follow a redirect) in clear (docs/security.md).
            let error = GannetError(
                .insecureTransport,
                "The trust evaluator requires HTTPS; refusing to send \(url.scheme ?? "") in clear",
                failingURL: url
            )
            throw TransportError.urlError(gannet: error, url: url)
        }

        self.easy = easy
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
        easy.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        errorBuffer[0] = 0
        easy.set(CURLOPT_HEADERDATA, pointer: me)
        easy.set(CURLOPT_WRITEDATA, pointer: me)
        easy.set(CURLOPT_READDATA, pointer: me)
        easy.set(CURLOPT_HTTPGET, true)
        easy.set(CURLOPT_CUSTOMREQUEST, nil as String?)
        easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: -1)
        easy.set(CURLOPT_MAX_SEND_SPEED_LARGE, offset: 0)
        // Bodies streamed to a file or a consumer are read in large blocks (libcurl's 16 KiB
        // default made 1 GiB downloads half as fast as the curl command line); bodies kept in
        // memory keep the default, so thousands of small tasks do not each hold 512 KiB.
        switch task.sink {
        case .memory: readBufferSize = 16 * 1024
        case .file: readBufferSize = 512 * 1024
        // What one read decodes to may have to wait in libcurl's pause buffer (64 MiB at
        // most) while the consumer catches up: 32 KiB of gzip decodes to 33 MiB at most.
        case .stream: readBufferSize = 32 * 1024
        }
        easy.set(CURLOPT_BUFFERSIZE, readBufferSize)
        TLSVerification.configure(easy, transfer: self, evaluates: evaluatesTrust)

        let connectMs = Int(min(configuration.connectTimeout, Double(idleTimeout) / 1e9) * 1000)
        easy.set(CURLOPT_CONNECTTIMEOUT_MS, max(connectMs, 1))
        let elapsed = Double(MonotonicClock.nanoseconds() &- startedAt) / 1e9
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
        try configureBody(easy, method: method, fields: &fields, removed: &removed)

        // `Name;` sends an empty value, `Name:` removes a header libcurl would add itself.
        var lines = fields.map { name, value in value.isEmpty ? "\(name);" : "\(name): \(value)" }
        lines += removed.map { "\($0):" }
        let list = HeaderList(lines)
        headerList = list
        easy.set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(list.raw))
        touch()
    }

    private func configureBody(
        _ easy: EasyHandle,
        method: String,
        fields: inout [(String, String)],
        removed: inout [String]
    ) throws {
        let upper = method.uppercased()
        let declaredLength = fields.first { $0.0.lowercased() == "content-length" }.flatMap { Int64($0.1) }
        // libcurl writes Content-Length (or chunked framing) itself from the size given here.
        fields.removeAll { ["content-length", "transfer-encoding"].contains($0.0.lowercased()) }
        if upper == "HEAD" {
            easy.set(CURLOPT_NOBODY, true)
            if method != "HEAD" { easy.set(CURLOPT_CUSTOMREQUEST, method) }
            return
        }
        if bodySource == nil && upper == "POST" { bodySource = .data(Data()) }
        guard let source = bodySource else {
            if method != "GET" { easy.set(CURLOPT_CUSTOMREQUEST, method) }
            expectedToSend = 0
            return
        }
        reader = try source.makeReader { [weak self, engine] in
            // From the body stream's thread: the read callback paused, bytes are ready now.
            if let self { engine.submit(.resumeSending(self)) }
        }
        let length = source.knownLength(declared: declaredLength)
        expectedToSend = length ?? -1
        task.update { $0.countOfBytesExpectedToSend = length ?? -1 }
        task.existingProgress(upload: true)?.totalUnitCount = length ?? -1
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
    }

    // MARK: Callbacks (engine thread, inside libcurl)

    func didReceiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        touch()
        if headComplete { return line.count }
        do {
            switch try parser.consume(line) {
            case .needMore, .informational:
                return line.count
            case .complete(let head):
                return didReceiveHead(head, lineLength: line.count)
            }
        } catch {
            stopError = TransportError.urlError(
                gannet: error as? GannetError ?? GannetError(.protocolViolation, "\(error)"),
                url: request.url
            )
            return 0
        }
    }

    /// The response of this hop as an `HTTPURLResponse`, built on first use.
    private func materializedResponse() -> HTTPURLResponse? {
        if response == nil, let head, let url = request.url { response = head.makeResponse(url: url) }
        return response
    }

    private func didReceiveHead(_ head: ResponseHead, lineLength: Int) -> Int {
        headComplete = true
        self.head = head
        guard let url = request.url else { return 0 }
        metrics.httpVersion = head.httpVersion

        if Redirection.isRedirect(head.statusCode) {
            switch Redirection.next(
                after: request,
                response: head.statusCode,
                location: head.value("Location"),
                policy: configuration.redirects,
                bodyIsRepeatable: bodySource?.isRepeatable ?? true
            ) {
            case .deliver:
                break
            case .refuse(let error):
                stopError = TransportError.urlError(gannet: error, url: url)
                return 0
            case .follow(let proposed):
                if redirectCount >= configuration.redirects.maximumRedirects {
                    let error = GannetError(
                        .tooManyRedirects,
                        "Stopped after \(redirectCount) redirects (the limit is \(configuration.redirects.maximumRedirects))",
                        failingURL: url
                    )
                    stopError = TransportError.urlError(gannet: error, url: url)
                    return 0
                }
                var next: URLRequest? = proposed
                if let hook = hooks.taskWillPerformHTTPRedirection, let response = materializedResponse() {
                    next = hook(task.manager, task, response, proposed)
                }
                if let next {
                    if let target = next.url, (try? RequestValidation.validate(url: target)) == nil {
                        let error = GannetError(
                            .unsupportedScheme,
                            "The redirect hook returned a request that cannot be sent",
                            failingURL: target
                        )
                        stopError = TransportError.urlError(gannet: error, url: url)
                        return 0
                    }
                    redirectTarget = next
                    task.monitor?.willRedirect(
                        task,
                        response.map { LazyResponse(prebuilt: $0, head: head) } ?? LazyResponse(head: head, url: url),
                        to: next
                    )
                    return lineLength
                }
            }
        }

        let expected = head.expectedContentLength
        let needsResponse = hooks.dataTaskDidReceiveResponse != nil || hooks.dataTaskDidReceiveResponseDeferred != nil
        let response = needsResponse ? materializedResponse() : nil
        task.update {
            if let response { $0.response = response }
            $0.countOfBytesExpectedToReceive = expected
        }
        task.existingProgress(upload: false)?.totalUnitCount = expected
        task.monitor?.didReceiveResponse(
            task,
            response.map { LazyResponse(prebuilt: $0, head: head) } ?? LazyResponse(head: head, url: url)
        )
        if configuration.decompressesResponses, let coding = head.value("Content-Encoding"),
            !coding.isEmpty, coding.lowercased() != "identity"
        {
            let chunked = head.value("Transfer-Encoding")?.lowercased().contains("chunked") == true
            encodedWireSlack = chunked ? Int64(readBufferSize) : 0
        }
        switch task.sink {
        case .memory:
            if expected > 0 {
                body.reserveCapacity(Int(min(expected, configuration.limits.maximumBodyBytes, 64 << 20)))
            }
        case .file:
            do {
                fileSink = try FileSink()
            } catch {
                stopError = TransportError.urlError(
                    gannet: error as? GannetError ?? GannetError(.bodyStreamFailed, "\(error)"),
                    url: url
                )
                return 0
            }
        case .stream(let stream):
            stream.deliverHead(LazyResponse(head: head, url: url))
        }
        if let decide = hooks.dataTaskDidReceiveResponse, let response, decide(task.manager, task, response) == .cancel
        {
            stopError = TransportError.make(
                .cancelled,
                underlying: GannetError(.transport, "Cancelled by the response disposition", failingURL: url),
                url: url
            )
            return 0
        }
        if let deferred = hooks.dataTaskDidReceiveResponseDeferred, let response {
            isAwaitingDisposition = true
            let engine = self.engine
            let transfer = self
            let task = self.task
            DispatchQueue.global().async {
                let decided = Decided()
                deferred(task.manager, task, response) { disposition in
                    guard decided.claim() else { return }
                    engine.submit(.disposition(transfer, disposition))
                }
            }
            return Int(CURL_WRITEFUNC_PAUSE)
        }
        return lineLength
    }

    func didReceiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        // Refused once, refused for good: libcurl may offer more after a failed replay.
        if stopError != nil { return 0 }
        touch()
        if redirectTarget != nil {
            // The body of a redirect we follow is discarded; a large one is not worth reading.
            redirectBodyBytes += bytes.count
            if redirectBodyBytes > 1 << 20 {
                followWithoutBody = true
                return 0
            }
            return bytes.count
        }
        let limit: Int64?
        switch task.sink {
        case .memory: limit = configuration.limits.maximumBodyBytes
        case .file, .stream: limit = configuration.limits.maximumDownloadBytes
        }
        let decoded = receivedBytes + Int64(bytes.count)
        if let limit, decoded > limit {
            let error = GannetError(
                .bodyTooLarge,
                "The response body exceeds \(limit) bytes after decoding",
                failingURL: request.url
            )
            stopError = TransportError.urlError(gannet: error, url: request.url)
            return 0
        }
        if let slack = encodedWireSlack, let ratio = configuration.limits.maximumDecompressionRatio,
            decoded > SessionConfiguration.Limits.decompressionRatioGraceBytes, let easy
        {
            // libcurl counts the encoded bytes it read (CURLINFO_SIZE_DOWNLOAD_T) before it
            // decodes them; Gannet sees only decoded bytes.
            let wire = max(easy.info(offset: CURLINFO_SIZE_DOWNLOAD_T) + slack, 1)
            let (allowed, overflow) = wire.multipliedReportingOverflow(by: Int64(max(ratio, 1)))
            if !overflow, decoded > allowed {
                let error = GannetError(
                    .decompressionBomb,
                    "The response body decoded to \(decoded) bytes from \(wire) on the wire, over the \(ratio):1 limit",
                    failingURL: request.url
                )
                stopError = TransportError.urlError(gannet: error, url: request.url)
                return 0
            }
        }
        switch task.sink {
        case .memory:
            body.append(bytes.assumingMemoryBound(to: UInt8.self))
        case .file:
            do {
                try fileSink?.write(bytes)
            } catch {
                stopError = TransportError.urlError(
                    gannet: error as? GannetError ?? GannetError(.bodyStreamFailed, "\(error)"),
                    url: request.url
                )
                return 0
            }
        case .stream(let stream):
            // Always taken, never answered with CURL_WRITEFUNC_PAUSE (docs/engine.md,
            // "Backpressure").
            stream.push(Data(bytes))
            if !isBackpressured, stream.pauseIfFull(), let easy {
                // Paused from inside the callback, libcurl stops reading after this read (it
                // would otherwise read on while the socket has data, up to 100 reads per
                // call); what this read still decodes to, libcurl keeps and delivers after the
                // unpause: at most one 32 KiB read, times the compression ratio.
                isBackpressured = true
                curl_easy_pause(easy.raw, CurlPause.receive)
            }
        }
        receivedBytes += Int64(bytes.count)
        if let hook = hooks.dataTaskDidReceiveData {
            hook(task.manager, task, Data(bytes))
        }
        // Optional chaining skips the argument too: the bytes are copied only for monitors.
        task.monitor?.didReceiveData(task, Data(bytes))
        reportProgress(final: false)
        return bytes.count
    }

    func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let reader else { return 0 }
        do {
            let count = try reader.read(into: buffer)
            // Waiting for a body stream is not activity: its idle timeout keeps running.
            if count == StreamBodyReader.pause { return count }
            touch()
            sentBytes += Int64(count)
            if count > 0, let hook = hooks.taskDidSendBodyData {
                hook(task.manager, task, Int64(count), sentBytes, expectedToSend)
            }
            if count > 0 {
                task.monitor?.didSendBodyData(task, Int64(count), total: sentBytes, expected: expectedToSend)
            }
            reportProgress(final: false)
            return count
        } catch {
            stopError = TransportError.urlError(
                gannet: error as? GannetError ?? GannetError(.bodyStreamFailed, "\(error)"),
                url: request.url
            )
            return Int(CURL_READFUNC_ABORT)
        }
    }

    /// Updates the task's counters and progress, calling progress handlers at most every 50 ms.
    private func reportProgress(final: Bool) {
        let received = receivedBytes
        let sent = sentBytes
        task.update {
            $0.countOfBytesReceived = received
            $0.countOfBytesSent = sent
        }
        let now = MonotonicClock.nanoseconds()
        guard final || now &- lastProgressReport > 50_000_000 else { return }
        lastProgressReport = now
        let handlers = task.progressHandlers
        if let download = handlers.download.map({ _ in task.downloadProgress }) ?? task.existingProgress(upload: false)
        {
            download.completedUnitCount = received
            if final && download.totalUnitCount < received { download.totalUnitCount = received }
            handlers.download?(download)
        }
        if let upload = handlers.upload.map({ _ in task.uploadProgress }) ?? task.existingProgress(upload: true) {
            upload.completedUnitCount = sent
            if final && upload.totalUnitCount < sent { upload.totalUnitCount = sent }
            handlers.upload?(upload)
        }
    }

    func collectMetrics() {
        guard let easy else { return }
        func seconds(_ info: CURLINFO) -> TimeInterval { Double(easy.info(offset: info)) / 1e6 }
        metrics.nameLookupDuration = seconds(CURLINFO_NAMELOOKUP_TIME_T)
        metrics.connectDuration = seconds(CURLINFO_CONNECT_TIME_T)
        metrics.secureConnectionDuration = seconds(CURLINFO_APPCONNECT_TIME_T)
        metrics.timeToFirstByte = seconds(CURLINFO_STARTTRANSFER_TIME_T)
        metrics.remoteAddress = easy.info(string: CURLINFO_PRIMARY_IP)
        metrics.remotePort = easy.info(long: CURLINFO_PRIMARY_PORT)
        metrics.reusedConnection = easy.info(long: CURLINFO_NUM_CONNECTS) == 0
        switch easy.info(long: CURLINFO_HTTP_VERSION) {
        case Int(CURL_HTTP_VERSION_1_0): metrics.httpVersion = "HTTP/1.0"
        case Int(CURL_HTTP_VERSION_1_1): metrics.httpVersion = "HTTP/1.1"
        case Int(CURL_HTTP_VERSION_2_0): metrics.httpVersion = "HTTP/2"
        case Int(CURL_HTTP_VERSION_3): metrics.httpVersion = "HTTP/3"
        default: break
        }
    }

    /// Whether Gannet decides trust for this transfer (an evaluator or a challenge handler),
    /// instead of libcurl's own verification.
    var evaluatesTrust: Bool {
        configuration.tls.serverTrustEvaluator != nil || hooks.serverTrustChallenge != nil
    }

    /// Called before libcurl sends this hop's request. libcurl sends it again on a new
    /// connection when a reused one closes before any response byte; the server may have
    /// acted on the first copy, so a method that is not idempotent (RFC 9110 §9.2.2) fails
    /// with `networkConnectionLost` instead of being replayed (docs/engine.md, "Connection reuse").
    func mayBeSent() -> Bool {
        sendAttempts += 1
        let method = (request.httpMethod ?? "GET").uppercased()
        guard sendAttempts > 1, !RetryPolicy.defaultRetryableHTTPMethods.contains(method) else { return true }
        let url = request.url
        let error = GannetError(
            .transport,
            "The reused connection closed before a response; a \(method) request is not sent again",
            failingURL: url
        )
        stopError = TransportError.make(.networkConnectionLost, underlying: error, url: url)
        return false
    }

    func closeNotifyReceived() { closeNotifyArrived = true }

    /// A body that only the end of a TLS connection delimits (HTTP/1.x without
    /// `Content-Length` or `Transfer-Encoding`) is complete only if the server ended TLS with
    /// close_notify; a bare TCP close may be an attacker's cut. libcurl 7.88 takes one for a
    /// clean end (docs/engine.md, "TLS"), so the engine checks.
    private func truncationWithoutCloseNotify() -> (any Error)? {
        guard !closeNotifyArrived, request.url?.scheme?.lowercased() == "https", let head,
            head.httpVersion.hasPrefix("HTTP/1"), (request.httpMethod ?? "GET").uppercased() != "HEAD",
            head.statusCode >= 200, head.statusCode != 204, head.statusCode != 304
        else { return nil }
        let framed = head.fields.contains {
            ["content-length", "transfer-encoding"].contains($0.name.lowercased())
        }
        guard !framed else { return nil }
        let error = GannetError(
            .transport,
            "The TLS connection closed without close_notify before the end of a body delimited by the close: it may be truncated",
            failingURL: request.url
        )
        return TransportError.make(.networkConnectionLost, underlying: error, url: request.url)
    }

    func recordCancelledHandshake() {
        let url = request.url
        stopError = TransportError.make(
            .cancelled,
            underlying: GannetError(.serverTrustRejected, "The server trust challenge was cancelled", failingURL: url),
            url: url
        )
    }

    func recordTrustFailure(_ error: any Error) {
        let url = request.url
        let gannet = GannetError(
            .serverTrustRejected,
            "The server's certificate was rejected: \(error)",
            failingURL: url,
            underlyingError: error
        )
        stopError = TransportError.urlError(gannet: gannet, url: url)
    }
}

/// Honours a deferred decision once.
final class Decided: Sendable {
    private let done = Atomic<Bool>(false)
    func claim() -> Bool {
        done.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    }
}

// MARK: C callbacks

// Nonisolated top-level functions, so libcurl never calls a closure formed in actor-isolated
// code (a Swift 6 runtime trap, see ENGINE-NOTES). Each recovers its Transfer, unretained: the
// engine's `active` table keeps it alive while its handle is in the multi handle.

func transferHeaderCallback(
    _ buffer: UnsafeMutablePointer<CChar>?,
    _ size: Int,
    _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.didReceiveHeaderLine(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

func transferWriteCallback(
    _ buffer: UnsafeMutablePointer<CChar>?,
    _ size: Int,
    _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return 0 }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.didReceiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
}

func transferReadCallback(
    _ buffer: UnsafeMutablePointer<CChar>?,
    _ size: Int,
    _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
    let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.readBody(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
}
