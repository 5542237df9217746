/// The connection loop of one iteration of an ``EventSource``: connects, feeds the body to an
/// ``EventStreamParser``, hands out events one at a time, and reconnects after a drop. An
/// actor, so the one consumer's calls never overlap with the state they share.
actor EventSourceReader {
    private let source: EventSource
    private let onOpen: (@Sendable (HTTPURLResponse) -> Void)?
    private var pending: [ServerSentEvent] = []
    private var connection: (task: SessionTask, body: ByteStreamConsumer, parser: EventStreamParser)?
    private var ended = false
    private var attempts = 0
    /// The failure that made the latest reconnection necessary, for `.reconnectionLimitReached`.
    private var lastFailure: (any Error)?

    init(source: EventSource, onOpen: (@Sendable (HTTPURLResponse) -> Void)?) {
        self.source = source
        self.onOpen = onOpen
    }

    /// The next event; `nil` once the source ended cleanly (204, cancellation).
    func next() async throws -> ServerSentEvent? {
        while true {
            // Cancellation ends the sequence at once, events already parsed included: a read
            // can bring several, and none may follow `cancel()` (docs/streaming.md).
            if source.isCancelled || Task.isCancelled { return end() }
            if !pending.isEmpty { return pending.removeFirst() }
            if ended { return end() }
            do {
                if connection == nil {
                    try await connect()
                } else {
                    try await read()
                }
            } catch {
                if source.isCancelled || Task.isCancelled { return end() }
                guard Self.isTransient(error) else {
                    _ = end()
                    throw error
                }
                drop()
                lastFailure = error
                try await reconnectLater()
            }
        }
    }

    private func connect() async throws {
        let request = source.nextRequest()
        let (task, state) = source.manager.makeByteStreamTask(for: request)
        let body = ByteStreamConsumer(state: state)
        guard source.track(task) else { return }
        task.resume()
        let lazy: LazyResponse
        do {
            lazy = try await withTaskCancellationHandler {
                try await state.response()
            } onCancel: {
                task.cancel()
            }
        } catch {
            source.untrack(task)
            throw error
        }
        guard let response = lazy.value else {
            source.untrack(task)
            throw TransportError.make(
                .badServerResponse,
                underlying: GannetError(.protocolViolation, "No HTTP response"),
                url: request.url
            )
        }
        let contentType = response.value(forHTTPHeaderField: "Content-Type")
        var refusal: StreamingError?
        if response.statusCode == 204 {
            ended = true  // the server's way to say "stop reconnecting" (WHATWG HTML §9.2.3)
        } else if response.statusCode != 200 {
            refusal = StreamingError(
                .unexpectedStatus,
                "The event source answered \(response.statusCode), not 200",
                statusCode: response.statusCode,
                contentType: contentType
            )
        } else if !EventStreamParser.isEventStream(contentType: contentType) {
            refusal = StreamingError(
                .notEventStream,
                "The event source answered \(String((contentType ?? "no Content-Type").prefix(100)).debugDescription), not text/event-stream",
                statusCode: response.statusCode,
                contentType: contentType
            )
        }
        if ended || refusal != nil {
            task.cancel()
            source.untrack(task)
            if let refusal { throw refusal }
            return
        }
        source.opened(response)
        onOpen?(response)
        let parser = EventStreamParser(
            maximumEventBytes: source.configuration.maximumEventBytes,
            lastEventID: source.lastEventID
        )
        connection = (task, body, parser)
    }

    private func read() async throws {
        guard let current = connection else { return }
        var parser = current.parser
        guard let chunk = try await current.body.next() else {
            // The body ended: an event without its blank line is discarded, and the source
            // reconnects (WHATWG HTML §9.2.3).
            parser.finish()
            drop()
            lastFailure = nil
            try await reconnectLater()
            return
        }
        let outputs = try parser.consume(chunk)
        connection?.parser = parser
        for output in outputs {
            switch output {
            case .event(let event):
                pending.append(event)
                attempts = 0
            case .retry(let milliseconds):
                source.record(retryMilliseconds: milliseconds)
            }
        }
        source.record(lastEventID: parser.lastEventID)
    }

    private func reconnectLater() async throws {
        attempts += 1
        if let limit = source.configuration.maximumReconnectionAttempts, attempts > limit {
            _ = end()
            throw StreamingError(
                .reconnectionLimitReached,
                "The event source failed \(limit) reconnections in a row",
                underlyingError: lastFailure
            )
        }
        await source.waitBeforeReconnecting()
    }

    private func drop() {
        guard let task = connection?.task else { return }
        task.cancel()
        source.untrack(task)
        connection = nil
    }

    private func end() -> ServerSentEvent? {
        ended = true
        drop()
        return nil
    }

    /// Failures another attempt may cure: a lost, refused or silent connection (WHATWG's
    /// "network error"); not TLS, not a refused request, not a server breaking HTTP.
    static func isTransient(_ error: any Error) -> Bool {
        guard let error = error as? URLError else { return false }
        switch error.code {
        case .networkConnectionLost, .cannotConnectToHost, .timedOut, .cannotFindHost, .notConnectedToInternet,
            .dnsLookupFailed:
            return true
        default:
            return false
        }
    }
}
