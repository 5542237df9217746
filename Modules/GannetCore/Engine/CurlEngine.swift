internal import CCurl
internal import Synchronization

#if canImport(Glibc)
internal import Glibc
#endif

/// The engine side of one session manager: its configuration, its transfers, its easy handles
/// and its libcurl shares, run by an ``EngineLoop`` thread it may share with other managers
/// (``EnginePool``; docs/engine.md, "Engines shared across managers").
///
/// Other threads reach it only through ``submit(_:)``, which queues on its loop. Everything
/// else runs on the loop's thread. What one manager opened (a connection, a TLS session, a DNS
/// entry from its routing, an easy handle carrying its options) stays with its engine: another
/// manager on the same loop neither reuses nor sees it.
final class CurlEngine: @unchecked Sendable {
    // @unchecked: `active`, `spareHandles`, `sessionShares`, `libcurlVerifiedShare` and `left`
    // are read and written only on the loop's thread (the loop's commands and the curl
    // callbacks it drives). Other threads only call ``submit(_:)`` and ``shutdown()``, which
    // touch the loop's locked inbox and `departed` (atomic); `loop` is immutable.
    // @exclusivity(unchecked) on `left`, `active` and `spareHandles`: on that one thread no
    // access to them contains code that reaches them; loops run over copies (`active.values`)
    // and the mutations are the collections' own methods (docs/performance.md, "Exclusivity
    // checks").

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

    /// The session's configuration, in a box every transfer holds (``Transfer/configuration``).
    let sharedConfiguration: SharedConfiguration
    /// The session's configuration, read in place.
    var configuration: SessionConfiguration { _read { yield sharedConfiguration.value } }
    /// The thread and multi handle this engine's transfers run on.
    let loop: EngineLoop
    private var multi: MultiHandle { loop.multi }
    /// Set once by the first ``shutdown()``: the manager leaves its loop once.
    private let departed = Atomic<Bool>(false)
    /// The manager left: a task still starting ends cancelled.
    @exclusivity(unchecked) private var left = false
    /// Live transfers by ``Transfer/serial``, a number never reused, so a stale reference
    /// (a pooled connection's ``ConnectionTrust``) finds nothing instead of another transfer.
    @exclusivity(unchecked) private var active: [UInt64: Transfer] = [:]
    /// This manager's own: a handle carries the manager's options and share (applyEngineOptions,
    /// TLSVerification.configure), so it never serves another manager's transfer.
    @exclusivity(unchecked) private var spareHandles: [EasyHandle] = []
    /// One connection, DNS and TLS session cache per trust scope (docs/engine.md, "TLS session
    /// resumption" and "Engines shared across managers"): `nil` for transfers libcurl verifies,
    /// a trust generation for those Gannet evaluates.
    /// The `nil` scope's is kept apart: a dictionary keyed by `UInt64?` costs the Swift runtime
    /// a search of every protocol conformance in the binary for `Optional: Hashable` on first
    /// use, about 700,000 instructions of a one-request process (docs/performance.md,
    /// "Start-up").
    private var sessionShares: [UInt64: SessionShare] = [:]
    private var libcurlVerifiedShare: SessionShare?

    init(configuration: SessionConfiguration) {
        sharedConfiguration = SharedConfiguration(configuration)
        loop = EnginePool.acquireLoop(for: configuration)
        loop.submit(.join(self))
    }

    /// Queues a transfer's command on the loop, and wakes it when it sleeps.
    func submit(_ command: consuming EngineLoop.Command) {
        loop.submit(command)
    }

    /// Queues a transfer's command; the caller makes the returned wake-up after releasing its
    /// own lock (``EngineLoop/queue(_:)``).
    func queue(_ command: consuming EngineLoop.Command) -> EngineWakeUp {
        loop.queue(command)
    }

    /// Leaves the loop once; in-flight transfers (there are none when a manager is released,
    /// since tasks keep their manager) end cancelled. The loop stops when it was the last
    /// manager on it.
    func shutdown() {
        guard !departed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        EnginePool.releaseLoop(loop, for: configuration, engine: self)
    }

    /// On the loop's thread, when the manager leaves: its transfers end cancelled, then its
    /// handles and shares are freed, so nothing of it stays on a loop that keeps running.
    func leave() {
        guard !left else { return }
        left = true
        for transfer in Array(active.values) {
            transfer.perform(transfer.machine.cancel(.sessionReleased))
        }
        spareHandles.removeAll()
        // After the handles: libcurl refuses to free a share an easy handle still uses.
        sessionShares.removeAll()
        libcurlVerifiedShare = nil
    }

    /// Attaches a starting transfer, or cancels it once the manager left.
    func start(_ transfer: Transfer) {
        if left {
            transfer.perform(transfer.machine.cancel(.sessionReleased))
        } else {
            attach(transfer)
        }
    }

    /// This manager's caches for `scope`: `nil` is libcurl's own verification; a trust
    /// generation is Gannet's evaluation as it stood in that generation. A session (or a
    /// pooled connection) is only ever resumed by a transfer of this manager and of the scope
    /// whose full handshake created it, so a replaced evaluator or challenge handler (a new
    /// generation) never inherits one, nor does another manager on the same loop.
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

    /// Configures the transfer's next hop on an easy handle and adds it to the multi handle.
    func attach(_ transfer: Transfer) {
        do {
            if try transfer.consultCache() {
                // The session's cache answers this hop: no handle, nothing sent.
                track(transfer)
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
        track(transfer)
        curl_multi_add_handle(multi.raw, easy.raw)
    }

    /// Removes the transfer's handle from the multi handle and recycles it; does nothing for a
    /// transfer that is not attached.
    func detach(_ transfer: Transfer) {
        if active.removeValue(forKey: transfer.serial) != nil { loop.transfersInFlight -= 1 }
        guard let easy = transfer.releaseHandle() else { return }
        curl_multi_remove_handle(multi.raw, easy.raw)
        // The error buffer belongs to the transfer; libcurl must not keep its address.
        easy.set(CURLOPT_ERRORBUFFER, pointer: nil)
        // A handle that heard a challenge holds libcurl's Digest state: a new one serves the next hop.
        if !left && spareHandles.count < 64 && !easy.heardChallenge { spareHandles.append(easy) }
    }

    /// Queues the transfer's body hand-over for the end of the loop's pass (docs/engine.md,
    /// "Handing bytes over").
    func handOverAtEndOfPass(_ transfer: Transfer) {
        loop.handOvers.append(transfer)
    }

    /// Counts the transfer in the loop's, which sleeps longer with none in flight.
    private func track(_ transfer: Transfer) {
        if active.updateValue(transfer, forKey: transfer.serial) == nil { loop.transfersInFlight += 1 }
    }

    /// The live transfer numbered `serial`, if it has not finished.
    func activeTransfer(serial: UInt64) -> Transfer? {
        active[serial]
    }

    private func makeHandle() -> EasyHandle {
        let easy = EasyHandle()
        easy.applyEngineOptions(configuration, proxy: sharedConfiguration.proxy)
        return easy
    }

    /// Ends the transfer's current hop with `code` (libcurl's, or the cache's for a hop it
    /// answered): the next hop begins, or the transfer finishes.
    func endHop(_ transfer: Transfer, code: CURLcode) {
        detach(transfer)
        transfer.perform(transfer.hopEnded(code))
    }

    /// Fails this manager's transfers idle for longer than their timeout (the loop's sweep).
    func sweepTimeouts(now: UInt64) {
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

/// Nanoseconds of `CLOCK_MONOTONIC`, for timeouts, metrics and progress throttling. Read from
/// the vDSO directly: `DispatchTime.now()` reaches the same clock through two more calls, about
/// 50 instructions more a read, and a small request reads it about 18 times (each header line,
/// each body chunk, each sweep): 1,000 instructions (docs/performance.md). Its values are
/// compared only with each other.
enum MonotonicClock {
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) &* 1_000_000_000 &+ UInt64(now.tv_nsec)
    }
}

/// A session's configuration by reference: a transfer holds it strongly and reads its fields in
/// place, where reading them through its `unowned` engine copied the whole struct at each use.
final class SharedConfiguration: Sendable {
    let value: SessionConfiguration
    /// `value.proxy` as libcurl's options say it, its environment read once, now.
    let proxy: ProxyRoute
    init(_ value: SessionConfiguration) {
        self.value = value
        proxy = ProxyRoute(value.proxy)
    }
}
