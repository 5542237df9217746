/// One rtnetlink message, parsed: the `nlmsghdr` fields and the payload Gannet understands.
///
/// A value with no I/O behind it: ``parse(_:)`` turns bytes from a `NETLINK_ROUTE` socket into
/// messages, and tests feed it captured bytes.
struct NetlinkMessage: Hashable, Sendable {
    /// `nlmsg_type`: `RTM_NEWLINK`, `NLMSG_ERROR`, ...
    var type: UInt16
    /// `nlmsg_flags`: `NLM_F_MULTI` marks a part of a multipart reply.
    var flags: UInt16
    /// `nlmsg_seq`: the request's sequence number in a reply, 0 in a notification.
    var sequence: UInt32
    /// `nlmsg_pid`: the sender's port; 0 for the kernel.
    var portID: UInt32
    /// What the message says.
    var payload: Payload

    enum Payload: Hashable, Sendable {
        /// `RTM_NEWLINK` or `RTM_DELLINK`.
        case link(LinkMessage)
        /// `RTM_NEWROUTE` or `RTM_DELROUTE`.
        case route(RouteMessage)
        /// `NLMSG_ERROR`: `errno` 0 is an acknowledgement, otherwise the positive errno of a
        /// failed request (the kernel sends it negated).
        case error(errno: Int32)
        /// `NLMSG_DONE`, the end of a multipart reply.
        case done
        /// `NLMSG_OVERRUN`: data was lost.
        case overrun
        /// Any other type (`NLMSG_NOOP`, addresses, neighbours): not needed to decide reachability.
        case other
    }

    /// Whether the message is one part of a multipart (dump) reply.
    var isMultipart: Bool { flags & Netlink.flagMulti != 0 }
}

/// An interface, from an `ifinfomsg` and its `IFLA_*` attributes.
struct LinkMessage: Hashable, Sendable {
    /// `RTM_DELLINK` rather than `RTM_NEWLINK`: the interface is gone.
    var isDeletion: Bool
    /// `ifi_type`: the `ARPHRD_*` hardware type.
    var hardwareType: UInt16
    /// `ifi_index`.
    var index: Int32
    /// `ifi_flags`: `IFF_UP`, `IFF_RUNNING`, `IFF_LOOPBACK`, ...
    var flags: UInt32
    /// `IFLA_IFNAME`.
    var name: String?
    /// `IFLA_OPERSTATE` (RFC 2863: 2 down, 5 dormant, 6 up, ...).
    var operationalState: UInt8?

    /// Administratively up and with carrier (`IFF_RUNNING` is set only for RFC 2863 "up" or
    /// "unknown"), and not being deleted.
    var isUsable: Bool {
        !isDeletion && flags & Netlink.interfaceUp != 0 && flags & Netlink.interfaceRunning != 0
    }

    var isLoopback: Bool { flags & Netlink.interfaceLoopback != 0 || hardwareType == Netlink.hardwareLoopback }
}

/// A route, from an `rtmsg` and its `RTA_*` attributes.
struct RouteMessage: Hashable, Sendable {
    /// `RTM_DELROUTE` rather than `RTM_NEWROUTE`.
    var isDeletion: Bool
    /// `rtm_family`: `AF_INET` or `AF_INET6`.
    var family: UInt8
    /// `rtm_dst_len`: 0 for a default route.
    var destinationPrefixLength: UInt8
    /// `RTA_TABLE` when present, else `rtm_table`.
    var table: UInt32
    /// `rtm_type`: `RTN_UNICAST`, `RTN_LOCAL`, `RTN_UNREACHABLE`, ...
    var routeType: UInt8
    /// `rtm_flags`: `RTNH_F_LINKDOWN`, `RTNH_F_DEAD` for a single-path route.
    var flags: UInt32
    /// `RTA_DST`.
    var destination: IPAddress?
    /// `RTA_GATEWAY`.
    var gateway: IPAddress?
    /// `RTA_PRIORITY`, the metric; lower wins.
    var priority: UInt32?
    /// Where packets leave: `RTA_OIF` of a single-path route, or each `rtnexthop` of `RTA_MULTIPATH`.
    var nextHops: [NextHop]

    /// One way out of a route.
    struct NextHop: Hashable, Sendable {
        /// The output interface index.
        var interfaceIndex: Int32
        /// `RTNH_F_*` flags of the hop.
        var flags: UInt32
        /// The gateway of the hop, if any.
        var gateway: IPAddress?

        /// Not marked dead or link-down by the kernel.
        var isAlive: Bool { flags & (Netlink.nextHopDead | Netlink.nextHopLinkDown) == 0 }
    }

    var isDefault: Bool { destinationPrefixLength == 0 }
}
