/// Decides reachability from the kernel's answers, with no I/O: the interfaces (from an
/// `RTM_GETLINK` dump) and either the route lookups for the target's addresses or the routing
/// table (for the "any network" target). The rules are those of docs/reachability.md.
struct ReachabilityEvaluation: Sendable {
    /// One interface and its kind.
    struct Interface: Hashable, Sendable {
        var link: LinkMessage
        var kind: InterfaceKind
    }

    /// What the kernel answered to a route lookup for one destination.
    enum Lookup: Hashable, Sendable {
        /// The route it would use.
        case route(RouteMessage)
        /// No route: the positive errno of the `NLMSG_ERROR` (`ENETUNREACH`, `EHOSTUNREACH`, ...).
        case failed(errno: Int32)
    }

    /// The interfaces by index.
    var interfaces: [Int32: Interface]

    init(interfaces: [Interface]) {
        self.interfaces = Dictionary(interfaces.map { ($0.link.index, $0) }, uniquingKeysWith: { _, last in last })
    }

    /// A target with these addresses: reachable through the first address (in resolver order)
    /// that has a usable route; not reachable when none has, or when there are no addresses.
    func status(of lookups: [(destination: IPAddress, lookup: Lookup)]) -> NetworkReachabilityStatus {
        for (destination, lookup) in lookups {
            let status = status(of: destination, lookup: lookup)
            if status.isReachable { return status }
        }
        return .notReachable
    }

    /// One destination: a unicast route (or a local route, for loopback destinations only)
    /// whose output interface is up with carrier and whose hop the kernel has not marked dead or
    /// link-down. A route through the loopback interface counts only for a loopback destination,
    /// so the machine's own addresses do not make a remote-looking target "reachable".
    func status(of destination: IPAddress, lookup: Lookup) -> NetworkReachabilityStatus {
        guard case .route(let route) = lookup else { return .notReachable }
        switch route.routeType {
        case Netlink.routeTypeUnicast, Netlink.routeTypeLocal: break
        default: return .notReachable  // blackhole, unreachable, prohibit, throw, ...
        }
        for hop in route.nextHops where hop.isAlive {
            guard let interface = interfaces[hop.interfaceIndex], interface.link.isUsable else { continue }
            let viaLoopback = interface.link.isLoopback || route.routeType == Netlink.routeTypeLocal
            if viaLoopback && !destination.isLoopback { continue }
            return interface.kind.reachableStatus
        }
        return .notReachable
    }

    /// AFNetworking's zero-address target, "any network": reachable when the main table has a
    /// default route (IPv4 or IPv6) with a live hop through a usable, non-loopback interface.
    /// Among several, the lowest metric decides the kind.
    func defaultRouteStatus(routes: [RouteMessage]) -> NetworkReachabilityStatus {
        let candidates = routes.filter {
            !$0.isDeletion && $0.isDefault && $0.table == Netlink.tableMain && $0.routeType == Netlink.routeTypeUnicast
        }.sorted { ($0.priority ?? 0) < ($1.priority ?? 0) }
        for route in candidates {
            for hop in route.nextHops where hop.isAlive {
                guard let interface = interfaces[hop.interfaceIndex], interface.link.isUsable,
                    !interface.link.isLoopback
                else { continue }
                return interface.kind.reachableStatus
            }
        }
        return .notReachable
    }
}
