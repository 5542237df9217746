internal import Synchronization

/// AFNetworking's `AFNetworkReachabilityManager` for Linux: watches whether a host, an address
/// or any network can be reached, and through which kind of interface.
///
/// ```swift
/// let manager = try NetworkReachabilityManager(domain: "api.example.com")
/// manager.setReachabilityStatusChangeBlock { status in print("now", status) }
/// try manager.startMonitoring()
/// for await status in manager.statusUpdates { … }
/// ```
///
/// Updates come from the kernel's rtnetlink link and route notifications, never from polling,
/// and deciding sends no traffic: the kernel is asked which route it would use, as
/// `ip route get` does. A host name is resolved with `getaddrinfo`, the only traffic
/// reachability causes. See docs/reachability.md for what "reachable" means here.
///
/// Status changes are delivered, in order, on the manager's `queue`: the queue given to the
/// initializer, or a serial queue of the manager's own (never the main queue, which a Linux
/// program may not run, and never the thread that reads netlink). A slow handler delays later
/// deliveries, not the reading.
public final class NetworkReachabilityManager: Sendable {
    /// The manager for any network (AFNetworking's zero address): reachable while a default
    /// route exists through an interface that is up. Call ``startMonitoring()`` before reading it.
    public static let shared = NetworkReachabilityManager()

    /// Where status changes, the change block, notifications and stream elements are delivered.
    public let queue: DispatchQueue

    private let target: ReachabilityTarget
    private let state = Mutex(State())

    private struct State: Sendable {
        var status = NetworkReachabilityStatus.unknown
        var changeBlock: (@Sendable (NetworkReachabilityStatus) -> Void)?
        var monitor: ReachabilityMonitor?
        /// Bumped by each start and stop, so a report from an earlier monitor is dropped.
        var generation: UInt64 = 0
        var streams: [UInt64: AsyncStream<NetworkReachabilityStatus>.Continuation] = [:]
        var nextStreamID: UInt64 = 0
    }

    /// A manager for any network, as AFNetworking's `+manager`: reachable when a default route
    /// (IPv4 or IPv6) goes through an interface that is up with carrier.
    public init(queue: DispatchQueue? = nil) {
        self.target = .anyNetwork
        self.queue = queue ?? DispatchQueue(label: "gannet.reachability.delivery")
    }

    /// A manager for a host name, as AFNetworking's `+managerForDomain:`. An IP literal is
    /// treated as ``init(address:queue:)-(IPAddress,_)``.
    ///
    /// - Throws: ``ReachabilityError/Code/invalidHost`` for an empty name, one over 253 bytes, or
    ///   one with spaces, slashes or control characters.
    public init(domain: String, queue: DispatchQueue? = nil) throws(ReachabilityError) {
        self.target = try .host(validating: domain)
        self.queue = queue ?? DispatchQueue(label: "gannet.reachability.delivery")
    }

    /// A manager for one address, as AFNetworking's `+managerForAddress:`. `0.0.0.0` and `::`
    /// mean any network, as the zero address did in AFNetworking.
    public init(address: IPAddress, queue: DispatchQueue? = nil) {
        self.target = address.isUnspecified ? .anyNetwork : .address(address)
        self.queue = queue ?? DispatchQueue(label: "gannet.reachability.delivery")
    }

    /// A manager for one address written as text (`192.0.2.1`, `2001:db8::1`).
    ///
    /// - Throws: ``ReachabilityError/Code/invalidAddress`` when `address` is not IPv4 or IPv6 text.
    public convenience init(address: String, queue: DispatchQueue? = nil) throws(ReachabilityError) {
        guard let parsed = IPAddress(address) else {
            throw ReachabilityError(.invalidAddress, "\(address.debugDescription) is not an IPv4 or IPv6 address")
        }
        self.init(address: parsed, queue: queue)
    }

    deinit {
        let (monitor, streams) = state.withLock { ($0.monitor, Array($0.streams.values)) }
        monitor?.stop()
        for stream in streams { stream.finish() }
    }

    /// The current status; ``NetworkReachabilityStatus/unknown`` before the first evaluation
    /// after ``startMonitoring()`` and after ``stopMonitoring()``.
    public var status: NetworkReachabilityStatus { state.withLock { $0.status } }

    /// Whether the target is reachable through any interface.
    public var isReachable: Bool { status.isReachable }
    /// Whether the target is reachable through an Ethernet-type interface.
    public var isReachableViaEthernet: Bool { status == .reachableViaEthernet }
    /// Whether the target is reachable through a wireless interface.
    public var isReachableViaWiFi: Bool { status == .reachableViaWiFi }
    /// Whether the target is reachable through another kind of interface (tunnel, PPP, loopback).
    public var isReachableViaOther: Bool { status == .reachableViaOther }

    /// Whether ``startMonitoring()`` was called without a ``stopMonitoring()`` since.
    public var isMonitoring: Bool { state.withLock { $0.monitor != nil } }

    /// Starts watching: subscribes to the kernel's notifications and evaluates at once, so the
    /// change block soon receives the current status. Calling it while monitoring does nothing.
    ///
    /// - Throws: ``ReachabilityError/Code/socketFailed`` when the netlink sockets cannot be opened
    ///   (for example under a seccomp profile that forbids `AF_NETLINK`).
    public func startMonitoring() throws(ReachabilityError) {
        let generation = state.withLock { state -> UInt64? in
            guard state.monitor == nil else { return nil }
            state.generation += 1
            return state.generation
        }
        guard let generation else { return }
        let monitor = try ReachabilityMonitor(target: target) { [weak self] status in
            self?.receive(status, generation: generation)
        }
        let installed = state.withLock { state in
            guard state.generation == generation, state.monitor == nil else { return false }
            state.monitor = monitor
            return true
        }
        if installed { monitor.start() } else { monitor.stop() }
    }

    /// Stops watching, resets ``status`` to unknown and finishes every ``statusUpdates``
    /// stream. The change block stays set for the next ``startMonitoring()``.
    public func stopMonitoring() {
        let (monitor, streams) = state.withLock { state in
            state.generation += 1
            state.status = .unknown
            defer {
                state.monitor = nil
                state.streams = [:]
            }
            return (state.monitor, Array(state.streams.values))
        }
        monitor?.stop()
        queue.async {
            for stream in streams { stream.finish() }
        }
    }

    /// Sets the closure called on ``queue`` with each new status, as AFNetworking's
    /// `setReachabilityStatusChangeBlock:`; `nil` removes it.
    public func setReachabilityStatusChangeBlock(_ block: (@Sendable (NetworkReachabilityStatus) -> Void)?) {
        state.withLock { $0.changeBlock = block }
    }

    /// A report from the monitor: record it and, if it is a change, deliver it on `queue`.
    private func receive(_ status: NetworkReachabilityStatus, generation: UInt64) {
        let delivery = state.withLock {
            state -> (
                block: (@Sendable (NetworkReachabilityStatus) -> Void)?,
                streams: [AsyncStream<NetworkReachabilityStatus>.Continuation]
            )? in
            guard state.generation == generation, state.status != status else { return nil }
            state.status = status
            return (state.changeBlock, Array(state.streams.values))
        }
        guard let delivery else { return }
        queue.async {
            delivery.block?(status)
            NotificationCenter.default.post(
                name: .gannetReachabilityDidChange,
                object: self,
                userInfo: [ReachabilityNotificationKey.status: status]
            )
            for stream in delivery.streams { stream.yield(status) }
        }
    }
}

extension NetworkReachabilityManager {
    /// Each status change, as an `AsyncSequence`: first the current status if it is known, then
    /// every change, delivered from ``queue``. The stream finishes when ``stopMonitoring()`` is
    /// called or the manager goes away; a consumer that stops iterating is removed. A stream made
    /// before ``startMonitoring()`` waits for it.
    public var statusUpdates: AsyncStream<NetworkReachabilityStatus> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: NetworkReachabilityStatus.self,
            bufferingPolicy: .unbounded
        )
        let (id, current) = state.withLock { state in
            let id = state.nextStreamID
            state.nextStreamID += 1
            state.streams[id] = continuation
            return (id, state.status)
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.streams.removeValue(forKey: id) }
        }
        if current != .unknown { queue.async { continuation.yield(current) } }
        return stream
    }
}
