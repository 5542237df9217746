internal import CCurl
internal import Synchronization

#if canImport(Glibc)
internal import Glibc
#endif

/// One thread that owns a libcurl multi handle and every easy handle of one session manager.
///
/// Other threads talk to it only through ``submit(_:)``: a command appended to a locked inbox,
/// then, when the engine sleeps in `curl_multi_poll`, `curl_multi_wakeup`, which cuts the wait
/// from the poll timeout to well under a millisecond (docs/engine.md, "Waking the engine").
/// Everything else runs on the engine thread.
final class CurlEngine: @unchecked Sendable {
    // @unchecked: `active`, `spareHandles`, `stopping` and `briefWaits` are read and
    // written only on the engine thread (inside `run()` and the curl callbacks it drives). Other
    // threads touch only `inbox` (a Mutex) and call `curl_multi_wakeup`, which libcurl documents
    // as safe from any thread; `multi` outlives every submitter because they hold the engine.

    enum Command {
        /// A task's command for its transfer, queued through ``TransferDriver``.
        case transfer(Transfer, TransferCommand)
        case shutdown
    }

    /// What a task, or a hook answering for it, asks of its transfer.
    enum TransferCommand {
        case start
        case cancel(GannetError?)
        case suspend
        case resume
        case disposition(ResponseDisposition)
        /// A byte-stream consumer caught up.
        case resumeReading
        /// The body's consumer failed (an output stream's write): the transfer ends with it.
        case fail(GannetError)
        /// The request body stream has bytes (or its end) for a transfer whose read callback
        /// paused sending.
        case resumeSending
    }

    /// The commands other threads queued, and whether the engine waits for them.
    private struct Inbox {
        var commands: [Command] = []
        /// The engine decided to block in `curl_multi_poll` with no command queued: the next
        /// submitter wakes it (once; it clears the flag). Set and read under the inbox's lock,
        /// so a command is either seen before the engine blocks or wakes it.
        var sleeping = false
    }

    /// The session's configuration, in a box every transfer holds (``Transfer/configuration``).
    let sharedConfiguration: SharedConfiguration
    /// The session's configuration, read in place.
    var configuration: SessionConfiguration { _read { yield sharedConfiguration.value } }
    private let multi: MultiHandle
    private let inbox = Mutex(Inbox())
    /// Live transfers by ``Transfer/serial``, a number never reused, so a stale reference
    /// (a pooled connection's ``ConnectionTrust``) finds nothing instead of another transfer.
    private var active: [UInt64: Transfer] = [:]
    private var spareHandles: [EasyHandle] = []
    /// One TLS session cache per trust scope (docs/engine.md, "TLS session resumption"):
    /// `nil` for transfers libcurl verifies, a trust generation for those Gannet evaluates.
    /// The `nil` scope's is kept apart: a dictionary keyed by `UInt64?` costs the Swift runtime
    /// a search of every protocol conformance in the binary for `Optional: Hashable` on first
    /// use, about 700,000 instructions of a one-request process (docs/performance.md,
    /// "Start-up").
    private var sessionShares: [UInt64: SessionShare] = [:]
    private var libcurlVerifiedShare: SessionShare?
    private var stopping = false
    private var briefWaits = BriefWaitPolicy()
    private var lastTimeoutSweep: UInt64 = 0

    init(configuration: SessionConfiguration) {
        _ = CurlGlobal.initialized
        sharedConfiguration = SharedConfiguration(configuration)
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

    /// Queues a command for the engine thread, and wakes it when it sleeps. An awake engine
    /// reads the inbox before it next blocks, so it needs no wake-up: a busy engine (many
    /// transfers, or many tasks started at once) is spared a system call per command.
    func submit(_ command: Command) {
        let wakes = inbox.withLock { inbox in
            inbox.commands.append(command)
            let sleeping = inbox.sleeping
            inbox.sleeping = false
            return sleeping
        }
        if wakes { curl_multi_wakeup(multi.raw) }
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
            inbox.withLock { swap(&$0.commands, &commands) }
            for command in commands { apply(command) }
            commands.removeAll(keepingCapacity: true)
            if stopping { break }
            curl_multi_perform(multi.raw, &running)
            let finished = collectFinishedTransfers()
            sweepTimeouts()
            if finished && active.isEmpty { awaitNextCommandBriefly() }
            // Block only with an empty inbox; from here on, a submitter wakes the poll.
            let idle: Int32 = active.isEmpty ? 1000 : 100
            let timeout = inbox.withLock { inbox -> Int32 in
                guard inbox.commands.isEmpty else { return 0 }
                inbox.sleeping = true
                return idle
            }
            curl_multi_poll(multi.raw, nil, 0, timeout, nil)
            inbox.withLock { $0.sleeping = false }
        }
        for transfer in Array(active.values) {
            transfer.perform(transfer.machine.cancel(.sessionReleased))
        }
        spareHandles.removeAll()
        // After the handles: libcurl refuses to free a share an easy handle still uses.
        sessionShares.removeAll()
        libcurlVerifiedShare = nil
    }

    /// The TLS session cache for `scope`: `nil` is libcurl's own verification; a trust
    /// generation is Gannet's evaluation as it stood in that generation. A session is only
    /// ever resumed by a transfer of the scope whose full handshake created it, so a
    /// replaced evaluator or challenge handler (a new generation) never inherits one.
    func sessionShare(for scope: UInt64?) -> SessionShare {
        guard let scope else {
            if let share = libcurlVerifiedShare { return share }
            let share = SessionShare()
            libcurlVerifiedShare = share
            return share
        }
        if let share = sessionShares[scope] { return share }
        let share = SessionShare()
        sessionShares[scope] = share
        return share
    }

    private func apply(_ command: Command) {
        switch command {
        case .transfer(let transfer, .start):
            if stopping {
                transfer.perform(transfer.machine.cancel(.sessionReleased))
            } else {
                attach(transfer)
            }
        case .transfer(let transfer, let command):
            transfer.handle(command)
        case .shutdown:
            stopping = true
        }
    }

    /// Configures the transfer's next hop on an easy handle and adds it to the multi handle.
    func attach(_ transfer: Transfer) {
        do {
            if try transfer.consultCache() {
                // The session's cache answers this hop: no handle, nothing sent.
                active[transfer.serial] = transfer
                transfer.serveCachedHop()
                return
            }
        } catch {
            transfer.perform(transfer.machine.fail(error))
            return
        }
        let easy = spareHandles.popLast() ?? makeHandle()
        do {
            try transfer.configure(easy)
        } catch {
            _ = transfer.releaseHandle()
            spareHandles.append(easy)
            transfer.perform(transfer.machine.fail(error))
            return
        }
        active[transfer.serial] = transfer
        curl_multi_add_handle(multi.raw, easy.raw)
    }

    /// Removes the transfer's handle from the multi handle and recycles it; does nothing for a
    /// transfer that is not attached.
    func detach(_ transfer: Transfer) {
        active[transfer.serial] = nil
        guard let easy = transfer.releaseHandle() else { return }
        curl_multi_remove_handle(multi.raw, easy.raw)
        // The error buffer belongs to the transfer; libcurl must not keep its address.
        easy.set(CURLOPT_ERRORBUFFER, pointer: nil)
        // A handle that heard a challenge holds libcurl's Digest state: a new one serves the next hop.
        if spareHandles.count < 64, !easy.heardChallenge { spareHandles.append(easy) }
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

    /// After the last transfer in flight finished, waits up to 50 µs for the next command before
    /// the loop blocks, when ``BriefWaitPolicy`` says waiting has been paying: a completion
    /// handler that starts the next request usually submits it within that time, and then
    /// neither side pays a wake-up (docs/engine.md, "Waking the engine"). Never on one
    /// processor, where the submitter could not run meanwhile.
    private func awaitNextCommandBriefly() {
        guard Self.waitsBriefly, briefWaits.shouldWait() else { return }
        let deadline = MonotonicClock.nanoseconds() &+ 50_000
        var paid = false
        while !paid && MonotonicClock.nanoseconds() < deadline {
            paid = inbox.withLock { !$0.commands.isEmpty }
        }
        briefWaits.record(paid: paid)
    }

    private static let waitsBriefly = ProcessInfo.processInfo.activeProcessorCount > 1

    /// Ends the hop of every transfer libcurl reports done; whether there was one.
    private func collectFinishedTransfers() -> Bool {
        var finished = false
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi.raw, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            var pointer: UnsafeMutableRawPointer? = nil
            _ = ccurl_easy_getinfo_pointer(handle, CURLINFO_PRIVATE, &pointer)
            guard let pointer else { continue }
            let transfer = Unmanaged<Transfer>.fromOpaque(pointer).takeUnretainedValue()
            transfer.collectMetrics()
            endHop(transfer, code: code)
            finished = true
        }
        return finished
    }

    /// Ends the transfer's current hop with `code` (libcurl's, or the cache's for a hop it
    /// answered): the next hop begins, or the transfer finishes.
    func endHop(_ transfer: Transfer, code: CURLcode) {
        detach(transfer)
        transfer.perform(transfer.hopEnded(code))
    }

    /// Fails transfers idle for longer than their timeout. Runs at most every 50 ms.
    private func sweepTimeouts() {
        let now = MonotonicClock.nanoseconds()
        guard now &- lastTimeoutSweep > 50_000_000, !active.isEmpty else { return }
        lastTimeoutSweep = now
        for transfer in active.values where transfer.isIdleExpired(now: now) {
            transfer.perform(transfer.machine.idleTimeoutExpired())
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

/// A session's configuration by reference: a transfer holds it strongly and reads its fields in
/// place, where reading them through its `unowned` engine copied the whole struct at each use.
final class SharedConfiguration: Sendable {
    let value: SessionConfiguration
    init(_ value: SessionConfiguration) { self.value = value }
}
