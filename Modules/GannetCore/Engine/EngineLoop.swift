internal import CCurl
internal import Synchronization

#if canImport(Glibc)
internal import Glibc
#endif

/// One thread that owns a libcurl multi handle and runs the transfers of every session manager
/// placed on it (``EnginePool``): each manager's side is a ``CurlEngine``, with its own easy
/// handles and its own connection, DNS and TLS session caches (docs/engine.md, "Engines shared
/// across managers").
///
/// Other threads talk to it only through ``submit(_:)``: a command appended to a locked inbox,
/// then, when the loop sleeps in `curl_multi_poll`, `curl_multi_wakeup`, which cuts the wait
/// from the poll timeout to well under a millisecond (docs/engine.md, "Waking the engine").
/// Everything else runs on the loop's thread.
final class EngineLoop: @unchecked Sendable {
    // @unchecked: `engines`, `transfersInFlight`, `handOvers`, `stopping`, `briefWaits` and
    // `lastTimeoutSweep` are read and written only on the loop's thread (inside `run()`, the
    // curl callbacks it drives and the CurlEngine methods it calls). Other threads touch only
    // `inbox` (a Mutex) and call `curl_multi_wakeup`, which libcurl documents as safe from any
    // thread; `multi` outlives every submitter because each CurlEngine holds its loop.
    // @exclusivity(unchecked) on those six: on that one thread no access to them contains code
    // that reaches them; loops run over copies (`engines.values`, `handOvers`) and the
    // mutations are the values' own methods (docs/performance.md, "Exclusivity checks").

    /// What other threads queue for the loop.
    enum Command {
        /// A task's command for its transfer, queued through ``TransferDriver``.
        case transfer(Transfer, CurlEngine.TransferCommand)
        /// The first command of a manager's engine: the loop runs its transfers from now on.
        case join(CurlEngine)
        /// The manager was invalidated or released: its transfers end cancelled, its handles and
        /// caches are freed. The loop stops when it was the last engine on it.
        case leave(CurlEngine, last: Bool)
    }

    /// The commands other threads queued, and whether the loop waits for them.
    private struct Inbox {
        var commands: [Command] = []
        /// The loop decided to block in `curl_multi_poll` with no command queued: the next
        /// submitter wakes it (once; it clears the flag). Set and read under the inbox's lock,
        /// so a command is either seen before the loop blocks or wakes it.
        var sleeping = false
    }

    /// The multi handle's settings, which libcurl applies to each connection cache on it (docs/engine.md,
    /// "Engines shared across managers"): managers are placed only on a loop whose settings are theirs.
    struct Settings: Hashable {
        /// `CURLMOPT_MAX_HOST_CONNECTIONS`.
        var maximumConnectionsPerHost: Int
        /// `CURLMOPT_MAXCONNECTS`, which libcurl checks against the cache a connection returns to.
        var maximumIdleConnections: Int

        init(_ configuration: SessionConfiguration) {
            maximumConnectionsPerHost = configuration.maximumConnectionsPerHost
            maximumIdleConnections = max(configuration.maximumIdleConnections, 1)
        }
    }

    let multi: MultiHandle
    private let inbox = Mutex(Inbox())
    /// The engines running here, by identity.
    @exclusivity(unchecked) private var engines: [ObjectIdentifier: CurlEngine] = [:]
    /// Transfers attached (to a handle or to the cache) over every engine of the loop.
    @exclusivity(unchecked) var transfersInFlight = 0
    /// Transfers whose sinks wrote in this pass and wake their consumers at its end
    /// (docs/engine.md, "Handing bytes over").
    @exclusivity(unchecked) var handOvers: [Transfer] = []
    @exclusivity(unchecked) private var stopping = false
    @exclusivity(unchecked) private var briefWaits = BriefWaitPolicy()
    @exclusivity(unchecked) private var lastTimeoutSweep: UInt64 = 0

    init(settings: Settings) {
        _ = CurlGlobal.initialized
        multi = MultiHandle()
        multi.set(CURLMOPT_MAX_HOST_CONNECTIONS, settings.maximumConnectionsPerHost)
        multi.set(CURLMOPT_MAXCONNECTS, settings.maximumIdleConnections)
        multi.set(CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        let thread = Thread { [self] in
            EngineLoop.nameThread()
            EngineLoop.blockSIGPIPE()
            run()
        }
        thread.name = "gannet.engine"
        thread.start()
    }

    /// Queues a command for the loop's thread, and wakes it when it sleeps. An awake loop reads
    /// the inbox before it next blocks, so it needs no wake-up: a busy loop (many transfers, or
    /// many tasks started at once) is spared a system call per command.
    func submit(_ command: consuming Command) {
        queue(command)()
    }

    /// Queues a command and returns the wake-up the loop is owed, for a caller that queues
    /// under a lock of its own (a task starting its transfer, which must stay ahead of a
    /// `.cancel`) and wakes the loop once it released that lock: woken inside it, the engine
    /// thread found the task's lock still held when it first reported to the task, and waited
    /// (docs/performance.md).
    func queue(_ command: consuming Command) -> EngineWakeUp {
        // Moved into the inbox: appended from the closure's capture, it was copied through the
        // enum's value witness (about 230 instructions a request, docs/performance.md).
        var pending = Optional(command)
        let wakes = inbox.withLock { inbox in
            if let command = pending.take() { inbox.commands.append(command) }
            let sleeping = inbox.sleeping
            inbox.sleeping = false
            return sleeping
        }
        return EngineWakeUp(loop: wakes ? self : nil)
    }

    fileprivate func wake() { curl_multi_wakeup(multi.raw) }

    /// Gives the calling thread the kernel name `gannet.engine`, which `top -H`, gdb and
    /// /proc/self/task/*/comm show (and ManyManagersTests counts). Foundation keeps
    /// `Thread.name` to itself on Linux, and `pthread_setname_np` is a GNU extension Swift's
    /// Glibc module does not import; /proc/thread-self/comm is the same kernel field.
    private static func nameThread() {
        let fd = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return }
        _ = "gannet.engine".withCString { write(fd, $0, strlen($0)) }
        close(fd)
    }

    /// Blocks `SIGPIPE` on the loop's thread, where every socket write happens. libcurl 7.88
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
            // In the order they came, each moved out: iterating copied every command and
            // emptying the array destroyed the originals, both through the enum's value
            // witnesses (about 350 instructions a request, docs/performance.md).
            commands.reverse()
            while let command = commands.popLast() { apply(command) }
            if stopping { break }
            curl_multi_perform(multi.raw, &running)
            let finished = collectFinishedTransfers()
            sweepTimeouts()
            handOverBodies()
            if finished && transfersInFlight == 0 { awaitNextCommandBriefly() }
            // Block only with an empty inbox; from here on, a submitter wakes the poll.
            let idle: Int32 = transfersInFlight == 0 ? 1000 : 100
            let timeout = inbox.withLock { inbox -> Int32 in
                guard inbox.commands.isEmpty else { return 0 }
                inbox.sleeping = true
                return idle
            }
            curl_multi_poll(multi.raw, nil, 0, timeout, nil)
            inbox.withLock { $0.sleeping = false }
        }
        // The pool stops a loop only once its last engine left; a dedicated one the same way.
        for engine in engines.values { engine.leave() }
        engines.removeAll()
        handOvers.removeAll()
    }

    /// Wakes the consumers of what this pass wrote (applied commands, `curl_multi_perform`,
    /// and an unpause inside either may all write): each waiting consumer once, however many
    /// reads the pass made, where waking it at every write cost a wake-up per 32 KiB read
    /// (docs/engine.md, "Handing bytes over").
    private func handOverBodies() {
        guard !handOvers.isEmpty else { return }
        for transfer in handOvers { transfer.handOverBody() }
        handOvers.removeAll(keepingCapacity: true)
    }

    private func apply(_ command: Command) {
        switch command {
        case .transfer(let transfer, .start):
            transfer.engine.start(transfer)
        case .transfer(let transfer, let command):
            transfer.handle(command)
        case .join(let engine):
            engines[ObjectIdentifier(engine)] = engine
        case .leave(let engine, let last):
            engine.leave()
            engines[ObjectIdentifier(engine)] = nil
            if last { stopping = true }
        }
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

    /// The processors online, from `sysconf`: a few thousand instructions, where
    /// `ProcessInfo.activeProcessorCount` reads cgroup files for about 430k, a cost every
    /// one-request process (the `gannet` command) would pay at start-up (docs/performance.md,
    /// "Start-up"). A process confined to fewer processors than are online loses little:
    /// ``BriefWaitPolicy`` stops waiting after the waits stop paying.
    private static let waitsBriefly = sysconf(Int32(_SC_NPROCESSORS_ONLN)) > 1

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
            transfer.engine.endHop(transfer, code: code)
            finished = true
        }
        return finished
    }

    /// Fails transfers idle for longer than their timeout. Runs at most every 50 ms.
    private func sweepTimeouts() {
        let now = MonotonicClock.nanoseconds()
        guard now &- lastTimeoutSweep > 50_000_000, transfersInFlight > 0 else { return }
        lastTimeoutSweep = now
        for engine in engines.values { engine.sweepTimeouts(now: now) }
    }
}

/// The wake-up a sleeping loop is owed after a command was queued (``EngineLoop/queue(_:)``);
/// nothing when the loop was awake. Made by calling it, at most once.
struct EngineWakeUp: Sendable {
    fileprivate let loop: EngineLoop?
    func callAsFunction() { loop?.wake() }
}
