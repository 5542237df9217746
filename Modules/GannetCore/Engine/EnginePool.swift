internal import Synchronization

/// The engine threads that session managers share: by default as many as the machine has
/// active processors, so 500 managers cost a handful of threads instead of 500
/// (docs/engine.md, "Engines shared across managers"; docs/performance.md, "Many managers").
///
/// A manager created with ``SessionConfiguration/EngineSharing/shared`` (the default) is placed on
/// the least loaded of the pool's threads: the one running the fewest live managers, a new one
/// while fewer than ``size`` run. Least loaded rather than round robin because managers come and
/// go: round robin keeps placing them in turn however many the earlier ones left on each thread.
/// A thread stops when its last manager leaves, so a process that keeps no manager keeps no
/// engine thread and no descriptor.
///
/// What a thread shares between its managers is the thread and libcurl's multi handle (its
/// poll loop); each manager keeps its own easy handles, its own connections, DNS entries and
/// TLS sessions (a libcurl share per manager and trust scope), its own cookies, credentials
/// and tasks.
///
/// ```swift
/// EnginePool.size = 4  // before creating the managers it should apply to
/// ```
public enum EnginePool {
    private struct Placement {
        let loop: EngineLoop
        var managers: Int
    }

    private struct State {
        /// Set by ``EnginePool/size``, or the active processor count once first needed: read
        /// only when a second thread could start, so a process with one manager (the `gannet`
        /// command) never pays for `ProcessInfo.activeProcessorCount`'s cgroup reads (about
        /// 430k instructions; docs/performance.md, "Start-up").
        var size: Int?

        mutating func resolvedSize() -> Int {
            if let size { return size }
            let count = max(ProcessInfo.processInfo.activeProcessorCount, 1)
            size = count
            return count
        }

        /// The running threads by the multi-handle settings their managers share.
        var loops: [EngineLoop.Settings: [Placement]] = [:]
    }

    private static let state = Mutex(State())

    /// The most threads that managers sharing the same connection limits are spread over; the
    /// machine's active processor count by default, at least 1. A new value applies to managers
    /// created afterwards; running threads are kept until their managers leave.
    public static var size: Int {
        get { state.withLock { $0.resolvedSize() } }
        set { state.withLock { $0.size = max(newValue, 1) } }
    }

    /// The loop a new manager with `configuration` runs on: one of the pool's, or a new one of its
    /// own (``SessionConfiguration/EngineSharing``).
    static func acquireLoop(for configuration: SessionConfiguration) -> EngineLoop {
        let settings = EngineLoop.Settings(configuration)
        guard isPooled(configuration) else { return EngineLoop(settings: settings) }
        return state.withLock { state in
            var placements = state.loops[settings, default: []]
            let least = placements.indices.min { placements[$0].managers < placements[$1].managers }
            let index: Int
            if let least, placements[least].managers == 0 || placements.count >= state.resolvedSize() {
                index = least
            } else {
                placements.append(Placement(loop: EngineLoop(settings: settings), managers: 0))
                index = placements.count - 1
            }
            placements[index].managers += 1
            state.loops[settings] = placements
            return placements[index].loop
        }
    }

    /// `engine`'s manager leaves `loop`: the loop stops when it was its last manager.
    static func releaseLoop(_ loop: EngineLoop, for configuration: SessionConfiguration, engine: CurlEngine) {
        let settings = EngineLoop.Settings(configuration)
        let last: Bool
        if isPooled(configuration) {
            last = state.withLock { state in
                guard var placements = state.loops[settings],
                    let index = placements.firstIndex(where: { $0.loop === loop })
                else { return true }
                placements[index].managers -= 1
                let empty = placements[index].managers == 0
                if empty { placements.remove(at: index) }
                state.loops[settings] = placements.isEmpty ? nil : placements
                return empty
            }
        } else {
            last = true
        }
        loop.submit(.leave(engine, last: last))
    }

    /// Whether a manager with `configuration` goes on a pooled thread. libcurl applies
    /// `CURLMOPT_MAX_HOST_CONNECTIONS` per connection cache but wakes the transfers waiting for
    /// a connection per multi handle, one at a time: a manager's waiting transfer could be woken
    /// for another manager's freed slot, and its own freed slot left to wait for the next. A
    /// per-host limit therefore gets a thread of its own (docs/engine.md, "Engines shared
    /// across managers").
    private static func isPooled(_ configuration: SessionConfiguration) -> Bool {
        configuration.engine == .shared && configuration.maximumConnectionsPerHost == 0
    }
}
