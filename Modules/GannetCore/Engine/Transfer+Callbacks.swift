internal import CCurl
internal import Synchronization

/// What libcurl's header, write and read callbacks do: ask the state machine, then parse,
/// decide, deliver or refuse. Engine thread, inside libcurl.
extension Transfer {
    func didReceiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        touch()
        do {
            switch try machine.receiveHeaderLine(line, pauseAwaitsConnection: handle.pauseAwaitsConnection) {
            case .answer(let answer): return reply(answer, lineLength: line.count)
            case .head(let head): return reply(didReceiveHead(head), lineLength: line.count)
            }
        } catch {
            return reply(stop(thrown: error, as: .protocolViolation), lineLength: line.count)
        }
    }

    /// A header or write callback's return value for an answer of the state machine:
    /// `lineLength` (what it was given) to take the bytes.
    func reply(_ answer: TransferStateMachine.Answer, lineLength: Int) -> Int {
        switch answer {
        case .take: return lineLength
        case .pause: return Int(CURL_WRITEFUNC_PAUSE)
        case .refuse: return 0
        }
    }

    /// A complete head of this hop: from the parser, or from the session's cache
    /// (Transfer+Cache.swift), which answers with the same path.
    func didReceiveHead(_ head: ResponseHead) -> TransferStateMachine.Answer {
        guard let url else {
            machine.hop.head = head
            return machine.stop(GannetError(.invalidRequest, "The request has no URL"))
        }
        counters.metrics.httpVersion = head.httpVersion
        // Every hop's cookies are stored before the next hop is configured, so a redirect
        // carries what its response set. A stored response's were stored when it arrived.
        if let storage = cookieStorage, !headIsFromCache { CookieRules.store(head, from: url, in: storage) }
        if !headIsFromCache, configuration.urlCache != nil { machine.hop.responseTime = Date() }
        // A `304` that confirms a stored response is replaced by it.
        let head = headAfterRevalidation(head)
        machine.hop.head = head

        switch HeadPolicy.step(for: head, hop: machine.hop) {
        case .authenticationProbe:
            // libcurl reads the challenge and sends the request again with the answer within
            // the hop; this body is ignored. The next head is the response.
            machine.hop.awaitsAuthenticationProbe = false
            machine.hop.head = nil
            return .take
        case .challenge:
            let outcome = authentication.decide(
                head,
                url: url,
                bodyCanBeSentAgain: body.canBeSentAgain(renewable: hooks.renewsBody),
                failureResponse: { machine.hop.materializedResponse() },
                // The handlers and the stored credentials are the task side's (TaskChannel).
                ask: {
                    try observer.transferCredential(for: $0.challenge, unscopedAdmitted: $0.unscopedAdmitted, url: url)
                }
            )
            switch outcome {
            case .deliver:
                break
            case .fail(let error):
                return machine.stop(error)
            case .retry(let credential):
                HopOptions.prepareToFollow(handle.easy, sentBody: body.source != nil && !headIsFromCache)
                return machine.headParsed(head, .follow(.retry(request, with: credential)))
            }
        case .redirect:
            let outcome = HeadPolicy.redirect(
                after: request,
                head: head,
                policy: configuration.redirects,
                bodyIsRepeatable: body.canBeSentAgain(renewable: hooks.renewsBody),
                redirectsSoFar: machine.redirectCount,
                hook: hooks.decidesRedirects
                    ? { [self] proposed in
                        // The hook is the task side's; with no response to show it, the proposal stands.
                        guard let response = machine.hop.materializedResponse() else { return proposed }
                        return observer.transferRedirect(response, proposed: proposed)
                    }
                    : nil
            )
            switch outcome {
            case .deliver:
                break
            case .refuse(let error):
                return machine.stop(TransportError.urlError(gannet: error, url: url))
            case .follow(let next):
                HopOptions.prepareToFollow(handle.easy, sentBody: body.source != nil && !headIsFromCache)
                if let response = machine.hop.lazyResponse() { observer.transferWillRedirect(response, to: next) }
                return machine.headParsed(head, .follow(.redirect(to: next)))
            }
        case .deliver:
            break
        }

        let needsResponse = hooks.decidesResponse || hooks.decidesResponseLater
        let response = needsResponse ? machine.hop.materializedResponse() : nil
        let lazy = machine.hop.lazyResponse()
        observer.transferDidReceiveHead(head, response: lazy)
        if let lazy { observer.transferDidReceiveResponse(lazy) }
        machine.hop.encodedWireSlack = BodyLimits.encodedSlack(
            for: head,
            decodes: configuration.decompressesResponses && !headIsFromCache,
            readBufferSize: sink.readBufferSize
        )
        do {
            try sink.open(head: head, url: url, limits: configuration.limits)
        } catch {
            return stop(thrown: error, as: .bodyStreamFailed)
        }
        if sink is MemorySink, !hooks.decidesResponseLater,
            let parts = MixedReplaceParts(head, url: url, maximumPartBytes: configuration.limits.maximumBodyBytes)
        {
            // Each part is a response of its own, asked about as it begins (Transfer+Parts.swift).
            output.parts = parts
            return machine.headParsed(head, .deliver)
        }
        if hooks.decidesResponse, let response, let stopped = askDisposition(for: response) {
            return stopped
        }
        if hooks.decidesResponseLater, let response {
            let answer = machine.headParsed(head, .deliverAfterDisposition)
            observer.transferAskDisposition(for: response) { [engine] disposition in
                engine.submit(.transfer(self, .disposition(disposition)))
            }
            return answer
        }
        return machine.headParsed(head, .deliver)
    }

    func didReceiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        if handle.pauseAwaitsConnection, machine.pause != .none { return Int(CURL_WRITEFUNC_PAUSE) }
        switch machine.bodyChunk(count: bytes.count) {
        case .deliver:
            break
        case .discard:
            // The body of a hop that is followed is discarded; a large one cuts the hop short.
            touch()
            return bytes.count
        case .refuse:
            // Refused once, refused for good: libcurl may offer more after a failed replay.
            return 0
        }
        touch()
        if output.parts != nil { return didReceiveParts(bytes) }
        let limits = BodyLimits(maximumBytes: sink.limit(configuration.limits), configuration.limits)
        // Only the easy handle is captured: the ratio check reads libcurl's count of wire bytes.
        let easy = handle.easy
        if let error = limits.refusal(
            decoded: counters.receivedBytes + Int64(bytes.count),
            encodedSlack: machine.hop.encodedWireSlack,
            wireBytes: { easy?.info(offset: CURLINFO_SIZE_DOWNLOAD_T) ?? 0 },
            url: url
        ) {
            return reply(machine.stop(TransportError.urlError(gannet: error, url: url)), lineLength: bytes.count)
        }
        do {
            try sink.write(bytes)
        } catch {
            return reply(stop(thrown: error, as: .bodyStreamFailed), lineLength: bytes.count)
        }
        if sink.handsOverOncePerPass, !output.handOverQueued {
            output.handOverQueued = true
            engine.handOverAtEndOfPass(self)
        }
        if !machine.isBackpressured, sink.pauseIfFull(), case .setPause(let pause) = machine.consumerFull(),
            let easy = handle.easy
        {
            // Paused from inside the callback, libcurl stops reading after this read (it would
            // otherwise read on while the socket has data, up to 100 reads per call); what this
            // read still decodes to, libcurl keeps and delivers after the unpause: at most one
            // 32 KiB read, times the compression ratio (docs/engine.md, "Backpressure").
            curl_easy_pause(easy.raw, CurlRequestHandle.mask(pause))
        }
        counters.receivedBytes += Int64(bytes.count)
        observer.transferDidReceiveData(bytes)
        reportProgress(final: false)
        return bytes.count
    }

    func readBody(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let reader = machine.hop.reader else { return 0 }
        if handle.pauseAwaitsConnection, machine.pause == .all { return StreamBodyReader.pause }
        do {
            let count = try reader.read(into: buffer)
            // Waiting for a body stream is not activity: its idle timeout keeps running.
            if count == StreamBodyReader.pause { return count }
            touch()
            machine.hop.sentBytes += Int64(count)
            let sent = machine.hop.sentBytes
            if count > 0 {
                observer.transferDidSendBodyData(Int64(count), total: sent, expected: counters.expectedToSend)
            }
            reportProgress(final: false)
            return count
        } catch {
            switch stop(thrown: error, as: .bodyStreamFailed) {
            case .refuse: return Int(CURL_READFUNC_ABORT)
            case .take, .pause: return StreamBodyReader.pause
            }
        }
    }
}
