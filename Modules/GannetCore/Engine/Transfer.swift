internal import CCurl
internal import Synchronization

/// The engine-side half of one task attempt: the request of the current hop, the easy handle,
/// the response head, the body sink. Where it is in its life is a ``TransferStateMachine``;
/// this class feeds it what libcurl reports (Transfer+Callbacks.swift) and what the task asks
/// (``handle(_:)``), and carries out what it returns. It reaches its task only through
/// ``TransferObserver`` (hooks, monitors, dispositions and new tasks are the task side's);
/// the task drives it only through ``TransferDriver``.
/// What a hop makes of the easy handle is ``HopOptions``' (docs/engine.md, "A transfer's shape").
final class Transfer: @unchecked Sendable {
    // @unchecked: all mutable state is read and written on the engine thread only (engine
    // commands and the libcurl callbacks it drives). Other threads hold a Transfer only as a
    // ``TransferDriver`` (whose methods only queue engine commands) or a token inside a command.
    //
    // @exclusivity(unchecked), on the properties every callback touches: on one thread, two
    // accesses to a property overlap only if code reaching the property runs inside an access
    // to it. None does. `machine`, `handle`, `output` and `counters` are values whose methods
    // run no code of the task's or the caller's and never enter libcurl's transfer functions
    // (they call `curl_easy_setopt` and `curl_easy_getinfo`, which run no callback); libcurl,
    // whose callbacks reach them, is entered only between accesses (``setPause(_:)`` reads the
    // handle, calls `curl_easy_pause`, then notes its result). `observer` is only loaded and
    // replaced. The runtime's check cost about 80 instructions an access, some 70 a request
    // (docs/performance.md, "Exclusivity checks"); `body` and `authentication`, whose methods
    // ask the task side, keep theirs.
    /// The task side: where the transfer reports, and what it asks; replaced by the download or
    /// stream task's after `.becomeDownload` or `.becomeStream` (Transfer+Disposition.swift).
    @exclusivity(unchecked) var observer: any TransferObserver
    unowned let engine: CurlEngine
    /// What the engine knows of the manager's hooks (the hooks are the observer's).
    let hooks: EngineHooks
    /// The server trust evaluator in force and what each hop asks of it.
    let trust: TransferTrust
    /// Numbers transfers for the life of the process; never reused (docs/engine.md).
    let serial = Transfer.serials.add(1, ordering: .relaxed).newValue
    private static let serials = Atomic<UInt64>(0)
    /// Read in place from the box the engine shares: a getter returning it would copy the
    /// whole configuration (its strings, dictionaries and evaluator) at every use.
    var configuration: SessionConfiguration {
        _read { yield settings.value }
    }
    private let settings: SharedConfiguration

    /// Where the transfer is, and the hop in flight with everything that belongs to it.
    @exclusivity(unchecked) var machine: TransferStateMachine
    /// The URL the caller asked for: session-wide credentials go to its origin only.
    let callerURL: URL?
    var body: TransferBody
    /// The easy handle of the hop in flight and the memory it points into.
    @exclusivity(unchecked) var handle = CurlRequestHandle()
    /// The challenges answered so far, by protection space, and whom the caller's credential is for.
    var authentication: AuthenticationRetries
    /// The body's sink, and the parser of a mixed-replace body's parts.
    @exclusivity(unchecked) var output: TransferOutput
    @exclusivity(unchecked) var counters: TransferCounters

    /// A transfer sending `request` (an attempt's, docs/interceptors.md) for the task behind
    /// `observer`; `callerURL` is the URL the caller asked for.
    init(
        observer: any TransferObserver,
        request: URLRequest,
        callerURL: URL?,
        body: BodySource?,
        sink: BodySinkKind,
        engine: CurlEngine,
        hooks: EngineHooks
    ) {
        self.observer = observer
        self.engine = engine
        self.hooks = hooks
        settings = engine.sharedConfiguration
        trust = TransferTrust(hooks: hooks, configured: settings.value.tls.serverTrustEvaluator)
        machine = TransferStateMachine(first: Hop(request: request, limits: settings.value.limits))
        self.callerURL = callerURL
        authentication = AuthenticationRetries(
            binding: CredentialBinding(origin: callerURL, schemes: hooks.credentialSchemes),
            proxy: settings.value.proxy
        )
        self.body = TransferBody(source: body)
        let seconds = TransferCounters.idleTimeout(of: request, session: settings.value.timeoutIntervalForRequest)
        counters = TransferCounters(idleTimeout: UInt64(seconds * 1e9), now: MonotonicClock.nanoseconds())
        output = TransferOutput(sink: sink.makeSink(idleTimeout: seconds))
    }

    deinit {
        handle.deallocate()
    }

    func touch() { counters.touch(now: MonotonicClock.nanoseconds()) }

    func isIdleExpired(now: UInt64) -> Bool {
        machine.countsIdleTime && counters.isIdleExpired(now: now)
    }

    func releaseHandle() -> EasyHandle? { handle.release() }

    var sink: any BodySink { output.sink }

    /// The loop's pass ended: the sink wakes its consumer for what the pass wrote.
    func handOverBody() {
        output.handOverQueued = false
        sink.handOver()
    }

    // MARK: Commands (engine thread)

    /// Applies a command the task queued through its ``TransferDriver``.
    func handle(_ command: CurlEngine.TransferCommand) {
        // A body stream's bytes arriving is activity (waiting for them was not).
        if case .resumeSending = command, machine.isLive, handle.easy != nil { touch() }
        perform(machine.apply(command))
    }

    /// Carries out an effect of the state machine. Every case is handled here; the callbacks'
    /// answers are handled where libcurl asks (Transfer+Callbacks.swift).
    func perform(_ effect: TransferStateMachine.Effect) {
        switch effect {
        case .none:
            break
        case .setPause(let pause):
            setPause(pause)
        case .follow(let next, let previous):
            counters.metrics.redirectCount = machine.redirectCount
            body.choose(for: next, previous: previous)
            engine.attach(self)
        case .cancel(let cause):
            engine.detach(self)
            finish(error: TransportError.cancelled(by: cause, url: url))
        case .fail(let failure):
            engine.detach(self)
            finish(error: errorMapping.error(for: failure))
        case .switchSink(let disposition):
            if let error = switchSink(for: disposition) {
                perform(machine.fail(error))
            } else {
                perform(machine.sinkSwitched())
            }
        case .finish:
            engine.detach(self)
            if output.parts != nil {
                do {
                    try finishParts()
                } catch {
                    finish(error: TransportError.urlError(thrown: error, as: .protocolViolation, url: url))
                    return
                }
            }
            finishSuccessfully()
        }
    }

    private func setPause(_ pause: TransferStateMachine.Pause) {
        guard let easy = handle.easy else {
            // A hop the cache answers has no handle: lifting the pause serves the rest.
            serveCachedHop()
            return
        }
        if pause != .all { touch() }
        // May re-enter the header and write callbacks before it returns; they run here, on
        // the engine thread, as they must.
        let result = curl_easy_pause(easy.raw, CurlRequestHandle.mask(pause))
        guard let code = handle.paused(pause, result: result), machine.isLive else { return }
        // libcurl replayed the bytes it held back and a callback refused them; it reports
        // that only to this caller, not to its transfer, so the engine ends it here.
        engine.detach(self)
        let effect = machine.unpauseFailed(code: Int32(bitPattern: code.rawValue))
        if case .fail(.libcurl) = effect {
            finish(error: errorMapping.libcurlError(code))
        } else {
            perform(effect)
        }
    }

    /// The request of the hop in flight.
    var request: URLRequest { machine.hop.request }
    var head: ResponseHead? { machine.hop.head }
    var response: HTTPURLResponse? { machine.hop.response }
    var url: URL? { machine.hop.url }

    /// The session's cookie storage when this hop's request handles cookies.
    var cookieStorage: (any CookieStoring)? {
        machine.hop.handlesCookies ? configuration.httpCookieStorage : nil
    }

    // MARK: Hops

    /// The header fields this hop sends
    /// (``HopOptions/headerFields(request:url:additionalHeaders:cookieStorage:callerURL:)``).
    func hopHeaderFields(for url: URL) -> [HTTPField] {
        HopOptions.headerFields(
            request: request,
            url: url,
            additionalHeaders: configuration.httpAdditionalHeaders,
            cookieStorage: cookieStorage,
            callerURL: callerURL
        )
    }

    /// Sets every option of the current hop on `easy` (``HopOptions``), with what only the
    /// transfer knows: the cache's validators, the callbacks' context, the body and its reader.
    /// Throws for a request that must not be sent or a body that cannot be opened.
    func configure(_ easy: EasyHandle) throws {
        guard let url else { throw GannetError(.invalidRequest, "The request has no URL") }
        let method = request.httpMethod ?? "GET"
        var fields = hopHeaderFields(for: url)
        let remaining = try HopOptions.check(
            url: url,
            method: method,
            fields: fields,
            routing: configuration.routing,
            resourceTimeout: configuration.timeoutIntervalForResource,
            requiresSecureTransport: trust.requiresSecureTransport,
            elapsed: counters.elapsed(now: MonotonicClock.nanoseconds())
        )
        if let cache = machine.hop.cache { fields += cache.conditions }
        // Only a cache reads the hop's times (a stored response's age).
        if configuration.urlCache != nil { machine.hop.requestTime = Date() }
        handle.easy = easy
        HopOptions.setRequest(
            easy,
            url: url,
            usesTLS: machine.hop.usesTLS,
            httpVersion: configuration.httpVersion,
            connectTimeout: configuration.connectTimeout,
            proxy: settings.proxy,
            context: Unmanaged.passUnretained(self).toOpaque(),
            readBufferSize: sink.readBufferSize,
            idleTimeout: counters.idleTimeout,
            remaining: remaining
        )
        handle.attachErrorBuffer(to: easy)
        TLSVerification.configure(easy, transfer: self)
        HopOptions.setCredential(easy, machine.hop.credential)
        try body.prepare(method: method, asking: observer, url: url)
        let (expectedToSend, headers, proxyHeaders) = HopOptions.setBodyAndHeaders(
            easy,
            method: method,
            source: body.source,
            fields: &fields,
            acceptEncodingLine: configuration.decompressesResponses ? CurlGlobal.acceptEncodingLine : nil
        )
        if expectedToSend != nil, let source = body.source {
            machine.hop.reader = try source.makeReader { [weak self, engine] in
                // From the body stream's thread: the read callback paused, bytes are ready now.
                if let self { engine.submit(.transfer(self, .resumeSending)) }
            }
        }
        counters.expectedToSend = expectedToSend ?? 0
        handle.attach(to: easy, headers: headers, proxyHeaders: proxyHeaders)
        observer.transferWillSend(request, expectedToSend: expectedToSend)
        touch()
    }

    /// What follows a hop that libcurl (or the cache) ended with `code`. The engine has
    /// already detached the handle.
    func hopEnded(_ code: CURLcode) -> TransferStateMachine.Effect {
        let code = deliverRevalidatedBody(code)
        return machine.hopEnded(code: Int32(bitPattern: code.rawValue))
    }

    /// The meaning of a failure, from what the transfer knows now.
    private var errorMapping: TransferErrorMapping {
        TransferErrorMapping(
            machine,
            detail: handle.errorDetail,
            idleTimeout: counters.idleTimeout,
            proxy: settings.proxy
        )
    }

    /// Stops the transfer for an error a step of Gannet's own threw (a parser, a sink, a body
    /// stream): ``TransportError/urlError(thrown:as:url:)``.
    func stop(thrown error: any Error, as code: GannetError.Code) -> TransferStateMachine.Answer {
        machine.stop(TransportError.urlError(thrown: error, as: code, url: url))
    }

    // MARK: Finishing

    private func finishSuccessfully() {
        finish(outcome: outcome(error: nil, cacheUpdate: cacheUpdate()))
    }

    /// Completes the task with an error. Called once, when the state machine says so.
    private func finish(error: any Error) {
        finish(outcome: outcome(error: error, cacheUpdate: nil))
    }

    /// The outcome of the hop in flight, made whole in one expression: a value built up in a
    /// variable was copied when passed on (docs/performance.md, "Eight cuts").
    private func outcome(error: (any Error)?, cacheUpdate: CacheUpdate?) -> TransferOutcome {
        TransferOutcome(
            request: request,
            response: response,
            head: head,
            data: nil,
            error: error,
            cacheUpdate: cacheUpdate,
            lazyResponse: machine.hop.lazyResponse()
        )
    }

    private func finish(outcome: consuming TransferOutcome) {
        let now = MonotonicClock.nanoseconds()
        reportProgress(final: true)
        machine.hop.reader = nil
        outcome.metrics = counters.finalMetrics(sent: machine.hop.sentBytes, now: now)
        let observer = self.observer
        sink.finish(outcome) { outcome in observer.transferDidEnd(consume outcome) }
    }

    /// Reports the byte counts; the handlers are called at most every 50 ms (``ProgressThrottle``).
    func reportProgress(final: Bool) {
        let notifies = counters.progressThrottle.shouldReport(now: MonotonicClock.nanoseconds(), final: final)
        let sent = machine.hop.sentBytes
        let received = counters.receivedBytes
        observer.transferDidProgress(received: received, sent: sent, notifiesHandlers: notifies, final: final)
    }

    func collectMetrics() {
        if let easy = handle.easy { counters.collectMetrics(from: easy) }
    }
}

extension Transfer: TransferDriver {
    func start() -> EngineWakeUp { engine.queue(.transfer(self, .start)) }
    func cancel(reason: GannetError?) { engine.submit(.transfer(self, .cancel(reason))) }
    func suspend() { engine.submit(.transfer(self, .suspend)) }
    func resume() { engine.submit(.transfer(self, .resume)) }
    func resumeReading() { engine.submit(.transfer(self, .resumeReading)) }
    func fail(_ error: GannetError) { engine.submit(.transfer(self, .fail(error))) }
}
