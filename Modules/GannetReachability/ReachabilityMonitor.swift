internal import Dispatch
internal import Synchronization

/// The I/O behind a manager while it monitors: a socket subscribed to `RTMGRP_LINK`,
/// `RTMGRP_IPV4_ROUTE` and `RTMGRP_IPV6_ROUTE`, read by a dispatch read source (woken by the
/// kernel, never by a timer), and a request socket that re-reads the interfaces and asks for
/// routes after every burst of notifications. Everything runs on one private serial queue;
/// results leave through `report`, which must not block.
///
/// Re-reading state on each notification, instead of patching a copy, means a lost
/// notification (`ENOBUFS`) or a message that fails to parse costs nothing but a re-read.
///
/// `@unchecked Sendable` because every stored property is a `let` and all but `source` are
/// Sendable; the dispatch source's handlers are set once in `init`, before it is shared, and its
/// `resume`, `cancel` and `isCancelled` are thread-safe in libdispatch, with `phase` (a `Mutex`)
/// making sure `resume` runs at most once.
final class ReachabilityMonitor: @unchecked Sendable {
    private let target: ReachabilityTarget
    private let queue: DispatchQueue
    private let requests: NetlinkSocket
    private let source: any DispatchSourceRead
    private let report: @Sendable (NetworkReachabilityStatus) -> Void
    /// The addresses of a host target from its last successful resolution; touched only on `queue`.
    private let resolved = Mutex<[IPAddress]>([])
    /// libdispatch aborts when a source that was never resumed is released, so `stop()` and
    /// `deinit` resume an idle source before cancelling it.
    private let phase = Mutex(Phase.idle)
    private enum Phase { case idle, running, stopped }

    /// Opens both sockets; nothing is read until ``start()``.
    init(
        target: ReachabilityTarget,
        report: @escaping @Sendable (NetworkReachabilityStatus) -> Void
    ) throws(ReachabilityError) {
        self.target = target
        self.report = report
        queue = DispatchQueue(label: "gannet.reachability.monitor")
        let events = try NetlinkSocket(
            groups: Netlink.groupLink | Netlink.groupIPv4Route | Netlink.groupIPv6Route,
            nonBlocking: true
        )
        requests = try NetlinkSocket(groups: 0, nonBlocking: false, receiveTimeout: 5)
        source = DispatchSource.makeReadSource(fileDescriptor: events.descriptor, queue: queue)
        let requests = requests
        source.setEventHandler { [weak self] in
            guard let self else { return }
            if self.drain(events) { self.evaluate(using: requests) }
        }
        // The source holds the events socket until it is cancelled, so the descriptor is
        // closed (by the socket's deinit) only once dispatch no longer watches it.
        source.setCancelHandler { withExtendedLifetime(events) {} }
    }

    /// Starts watching and evaluates once, so the current status is known without waiting for
    /// a change.
    func start() {
        let idle = phase.withLock { phase in
            defer { if phase == .idle { phase = .running } }
            return phase == .idle
        }
        guard idle else { return }
        source.resume()
        let requests = requests
        queue.async { [weak self] in self?.evaluate(using: requests) }
    }

    /// Stops watching. An evaluation already under way may still report; the manager drops it
    /// (its generation has moved on).
    func stop() {
        let previous = phase.withLock { phase in
            defer { phase = .stopped }
            return phase
        }
        switch previous {
        case .idle:
            source.resume()
            source.cancel()
        case .running: source.cancel()
        case .stopped: break
        }
    }

    deinit { stop() }

    /// Reads every waiting notification. Returns whether any could change reachability: a link
    /// or route message, a loss of notifications, or a message that did not parse.
    private func drain(_ events: NetlinkSocket) -> Bool {
        var relevant = false
        while true {
            do {
                switch try events.receive() {
                case .nothing: return relevant
                case .overrun: relevant = true
                case .messages(let messages):
                    relevant =
                        relevant
                        || messages.contains {
                            switch $0.payload {
                            case .link, .route, .overrun: true
                            case .error, .done, .other: false
                            }
                        }
                }
            } catch {
                // A malformed message: the state it described is re-read instead.
                relevant = true
                if error.code == .socketFailed { return true }
            }
        }
    }

    private func evaluate(using requests: NetlinkSocket) {
        guard !source.isCancelled else { return }
        let status: NetworkReachabilityStatus
        do {
            status = try currentStatus(using: requests)
        } catch {
            status = .unknown
        }
        guard !source.isCancelled else { return }
        report(status)
    }

    private func currentStatus(using requests: NetlinkSocket) throws(ReachabilityError) -> NetworkReachabilityStatus {
        let evaluation = ReachabilityEvaluation(interfaces: try interfaces(using: requests))
        switch target {
        case .anyNetwork:
            var routes: [RouteMessage] = []
            for family in [Netlink.addressFamilyIPv4, Netlink.addressFamilyIPv6] {
                guard
                    case .messages(let messages) = try requests.transact({ .dumpRoutes(family: family, sequence: $0) })
                else { continue }
                routes += messages.compactMap { if case .route(let route) = $0.payload { route } else { nil } }
            }
            return evaluation.defaultRouteStatus(routes: routes)
        case .address(let address):
            return evaluation.status(of: [(address, try lookup(address, using: requests))])
        case .host(let name):
            var addresses = resolved.withLock { $0 }
            if addresses.isEmpty {
                addresses = ReachabilityTarget.resolve(name)
                resolved.withLock { $0 = addresses }
            }
            var lookups: [(destination: IPAddress, lookup: ReachabilityEvaluation.Lookup)] = []
            for address in addresses { lookups.append((address, try lookup(address, using: requests))) }
            return evaluation.status(of: lookups)
        }
    }

    private func interfaces(
        using requests: NetlinkSocket
    ) throws(ReachabilityError) -> [ReachabilityEvaluation.Interface] {
        guard case .messages(let messages) = try requests.transact({ .dumpLinks(sequence: $0) }) else {
            throw ReachabilityError(.socketFailed, "the kernel refused to list the interfaces")
        }
        return messages.compactMap { message in
            guard case .link(let link) = message.payload else { return nil }
            let wireless = link.name.map(InterfaceKind.isWireless(interfaceName:)) ?? false
            return .init(link: link, kind: .classify(hardwareType: link.hardwareType, isWireless: wireless))
        }
    }

    private func lookup(
        _ address: IPAddress,
        using requests: NetlinkSocket
    ) throws(ReachabilityError) -> ReachabilityEvaluation.Lookup {
        switch try requests.transact({ .lookupRoute(to: address, sequence: $0) }) {
        case .failed(let code): return .failed(errno: code)
        case .messages(let messages):
            for message in messages { if case .route(let route) = message.payload { return .route(route) } }
            return .failed(errno: 0)
        }
    }
}
