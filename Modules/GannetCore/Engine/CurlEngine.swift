internal import CCurl
internal import Synchronization

#if canImport(Glibc)
internal import Glibc
#endif

/// One thread that owns a libcurl multi handle and every easy handle of one session manager.
///
/// Other threads talk to it only through ``submit(_:)``: a command appended to a locked inbox,
/// then `curl_multi_wakeup`, which cuts the wait from the poll timeout to well under a
/// millisecond (ENGINE-NOTES). Everything else runs on the engine thread.
final class CurlEngine: @unchecked Sendable {
    // @unchecked: `active`, `spareHandles` and `stopping` are read and
    // written only on the engine thread (inside `run()` and the curl callbacks it drives). Other
    // threads touch only `inbox` (a Mutex) and call `curl_multi_wakeup`, which libcurl documents
    // as safe from any thread; `multi` outlives every submitter because they hold the engine.

    enum Command {
        case start(Transfer)
        case cancel(Transfer, GannetError?)
        case suspend(Transfer)
        case resume(Transfer)
        case disposition(Transfer, ResponseDisposition)
        case resumeReading(Transfer)
        /// The request body stream has bytes (or its end) for a transfer whose read callback
        /// paused sending.
        case resumeSending(Transfer)
        case shutdown
    }

    let configuration: SessionConfiguration
    private let multi: MultiHandle
    private let inbox = Mutex<[Command]>([])
    /// Live transfers by ``Transfer/serial``, a number never reused, so a stale reference
    /// (a pooled connection's ``ConnectionTrust``) finds nothing instead of another transfer.
    private var active: [UInt64: Transfer] = [:]
    private var spareHandles: [EasyHandle] = []
    private var stopping = false
    private var lastTimeoutSweep: UInt64 = 0

    init(configuration: SessionConfiguration) {
        _ = CurlGlobal.initialized
        self.configuration = configuration
        multi = MultiHandle()
        multi.set(CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maximumConnectionsPerHost)
        multi.set(CURLMOPT_MAXCONNECTS, max(configuration.maximumIdleConnections, 1))
        multi.set(CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        let thread = Thread { [self] in
            CurlEngine.blockSIGPIPE()
            run()
        }
        thread.name = "gannet.engine"
        thread.start()
    }

    /// Queues a command for the engine thread and wakes it.
    func submit(_ command: Command) {
        inbox.withLock { $0.append(command) }
        curl_multi_wakeup(multi.raw)
    }

    /// Stops the engine thread once; in-flight transfers (there are none when a manager is
    /// released, since tasks keep their manager) end cancelled.
    func shutdown() {
        submit(.shutdown)
    }

    /// Blocks `SIGPIPE` on the engine thread, where every socket write happens. libcurl 7.88
    /// already sends with `MSG_NOSIGNAL`, but a libcurl whose TLS backend writes through
    /// OpenSSL's own socket BIO (`send` without flags) would raise it on a reset peer, and
    /// `CURLOPT_NOSIGNAL` stops libcurl ignoring it. A signal raised by this thread's own write
    /// while blocked stays pending on this thread and is never delivered; the process's
    /// disposition and every other thread are left alone (docs/engine.md, "Signals").
    private static func blockSIGPIPE() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    // MARK: The loop

    private func run() {
        var running: Int32 = 0
        var commands: [Command] = []
        while true {
            inbox.withLock { swap(&$0, &commands) }
            for command in commands { apply(command) }
            commands.removeAll(keepingCapacity: true)
            if stopping { break }
            curl_multi_perform(multi.raw, &running)
            collectFinishedTransfers()
            sweepTimeouts()
            curl_multi_poll(multi.raw, nil, 0, active.isEmpty ? 1000 : 100, nil)
        }
        for transfer in Array(active.values) {
            detach(transfer)
            transfer.finish(
                error: TransportError.make(
                    .cancelled,
                    underlying: GannetError(.sessionInvalidated, "The session manager was released"),
                    url: transfer.request.url
                )
            )
        }
        spareHandles.removeAll()
    }

    private func apply(_ command: Command) {
        switch command {
        case .start(let transfer):
            if stopping {
                transfer.finish(
                    error: TransportError.make(
                        .cancelled,
                        underlying: GannetError(.sessionInvalidated, "The session manager was released"),
                        url: transfer.request.url
                    )
                )
            } else {
                attach(transfer)
            }
        case .cancel(let transfer, let reason):
            guard active[transfer.serial] != nil else { return }
            detach(transfer)
            let url = transfer.request.url
            let error =
                reason.map { TransportError.make(.cancelled, underlying: $0, url: url) }
                ?? TransportError.make(
                    .cancelled,
                    underlying: GannetError(.transport, "The task was cancelled", failingURL: url),
                    url: url
                )
            transfer.finish(error: error)
        case .suspend(let transfer):
            guard active[transfer.serial] != nil, let easy = transfer.easy, !transfer.isSuspended else { return }
            transfer.isSuspended = true
            curl_easy_pause(easy.raw, CurlPause.all)
        case .resume(let transfer):
            guard active[transfer.serial] != nil, transfer.isSuspended else { return }
            transfer.isSuspended = false
            transfer.touch()
            if let easy = transfer.easy {
                // A byte stream whose consumer is behind stays paused for receiving.
                let receivePaused = transfer.isAwaitingDisposition || transfer.isBackpressured
                unpause(transfer, easy, receivePaused ? CurlPause.receive : CurlPause.resume)
            }
        case .disposition(let transfer, let disposition):
            guard active[transfer.serial] != nil, transfer.isAwaitingDisposition else { return }
            transfer.isAwaitingDisposition = false
            if disposition == .cancel {
                detach(transfer)
                transfer.finish(
                    error: TransportError.make(
                        .cancelled,
                        underlying: GannetError(
                            .transport,
                            "Cancelled by the response disposition",
                            failingURL: transfer.request.url
                        ),
                        url: transfer.request.url
                    )
                )
            } else if !transfer.isSuspended, let easy = transfer.easy {
                transfer.touch()
                // May re-enter the header and write callbacks before it returns; they run here,
                // on the engine thread, as they must.
                unpause(transfer, easy, CurlPause.resume)
            }
        case .resumeSending(let transfer):
            guard active[transfer.serial] != nil, let easy = transfer.easy else { return }
            transfer.touch()
            // A suspended transfer resumes both directions when it is resumed.
            guard !transfer.isSuspended else { return }
            let receivePaused = transfer.isBackpressured || transfer.isAwaitingDisposition
            unpause(transfer, easy, receivePaused ? CurlPause.receive : CurlPause.resume)
        case .resumeReading(let transfer):
            guard active[transfer.serial] != nil, transfer.isBackpressured else { return }
            transfer.isBackpressured = false
            transfer.touch()
            if !transfer.isSuspended && !transfer.isAwaitingDisposition, let easy = transfer.easy {
                unpause(transfer, easy, CurlPause.resume)
            }
        case .shutdown:
            stopping = true
        }
    }

    /// Lifts a pause. libcurl first replays the bytes it held back through the write callback,
    /// which may refuse them (a body or decompression limit); libcurl then reports the error
    /// only to this caller, not to its transfer, so the engine ends the transfer here.
    private func unpause(_ transfer: Transfer, _ easy: EasyHandle, _ mask: Int32) {
        let code = curl_easy_pause(easy.raw, mask)
        guard code != CURLE_OK, active[transfer.serial] != nil else { return }
        detach(transfer)
        transfer.unpauseFailed(code)
    }

    /// Configures the transfer's next hop on an easy handle and adds it to the multi handle.
    func attach(_ transfer: Transfer) {
        let easy = spareHandles.popLast() ?? makeHandle()
        do {
            try transfer.configure(easy)
        } catch {
            spareHandles.append(easy)
            transfer.finish(error: error)
            return
        }
        active[transfer.serial] = transfer
        curl_multi_add_handle(multi.raw, easy.raw)
    }

    /// Removes the transfer's handle from the multi handle and recycles it.
    func detach(_ transfer: Transfer) {
        active[transfer.serial] = nil
        guard let easy = transfer.releaseHandle() else { return }
        curl_multi_remove_handle(multi.raw, easy.raw)
        // The error buffer belongs to the transfer; libcurl must not keep its address.
        easy.set(CURLOPT_ERRORBUFFER, pointer: nil)
        if spareHandles.count < 64 { spareHandles.append(easy) }
    }

    /// The live transfer numbered `serial`, if it has not finished.
    func activeTransfer(serial: UInt64) -> Transfer? {
        active[serial]
    }

    private func makeHandle() -> EasyHandle {
        let easy = EasyHandle()
        easy.applyEngineOptions(configuration)
        return easy
    }

    private func collectFinishedTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi.raw, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var pointer: UnsafeMutableRawPointer? = nil
            _ = ccurl_easy_getinfo_pointer(handle, CURLINFO_PRIVATE, &pointer)
            guard let pointer else { continue }
            let transfer = Unmanaged<Transfer>.fromOpaque(pointer).takeUnretainedValue()
            transfer.collectMetrics()
            detach(transfer)
            if let next = transfer.hopEnded(code) {
                transfer.beginHop(next)
                attach(transfer)
            }
        }
    }

    /// Fails transfers idle for longer than their timeout. Runs at most every 50 ms.
    private func sweepTimeouts() {
        let now = MonotonicClock.nanoseconds()
        guard now &- lastTimeoutSweep > 50_000_000, !active.isEmpty else { return }
        lastTimeoutSweep = now
        for transfer in active.values where transfer.isIdleExpired(now: now) {
            detach(transfer)
            let seconds = Double(transfer.idleTimeout) / 1e9
            let error = GannetError(
                .timedOut,
                "The request timed out: no data for \(seconds) s",
                failingURL: transfer.request.url
            )
            transfer.finish(error: TransportError.urlError(gannet: error, url: transfer.request.url))
        }
    }
}

/// `curl_easy_pause` bitmasks; the C macros are compound expressions Swift does not import.
enum CurlPause {
    static let all: Int32 = 1 | 4
    static let receive: Int32 = 1
    static let resume: Int32 = 0
}

enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }
}
