/// The rtnetlink(7) constants Gannet uses, spelled as the kernel headers spell them. Glibc's
/// module map does not bring `<linux/netlink.h>` or `<linux/rtnetlink.h>`, and these values are
/// kernel ABI, fixed since Linux 2.2 (the lookup flag since 4.11).
enum Netlink {
    static let headerSize = 16
    static let alignment = 4

    /// Rounds a length up to the 4-byte boundary messages and attributes start on (`NLMSG_ALIGN`).
    static func aligned(_ length: Int) -> Int { (length + alignment - 1) & ~(alignment - 1) }

    // Socket.
    static let family: Int32 = 16  // AF_NETLINK
    static let routeProtocol: Int32 = 0  // NETLINK_ROUTE

    // Multicast groups (the legacy bit masks for sockaddr_nl.nl_groups).
    static let groupLink: UInt32 = 0x1  // RTMGRP_LINK
    static let groupIPv4Route: UInt32 = 0x40  // RTMGRP_IPV4_ROUTE
    static let groupIPv6Route: UInt32 = 0x400  // RTMGRP_IPV6_ROUTE

    // Message types.
    static let noop: UInt16 = 1
    static let error: UInt16 = 2
    static let done: UInt16 = 3
    static let overrun: UInt16 = 4
    static let newLink: UInt16 = 16
    static let deleteLink: UInt16 = 17
    static let getLink: UInt16 = 18
    static let newRoute: UInt16 = 24
    static let deleteRoute: UInt16 = 25
    static let getRoute: UInt16 = 26

    // Header flags.
    static let flagRequest: UInt16 = 0x1
    static let flagMulti: UInt16 = 0x2
    static let flagDump: UInt16 = 0x300

    // Link attributes and flags.
    static let linkName: UInt16 = 3  // IFLA_IFNAME
    static let linkOperationalState: UInt16 = 16  // IFLA_OPERSTATE
    static let interfaceUp: UInt32 = 0x1  // IFF_UP
    static let interfaceLoopback: UInt32 = 0x8  // IFF_LOOPBACK
    static let interfaceRunning: UInt32 = 0x40  // IFF_RUNNING
    static let hardwareEthernet: UInt16 = 1  // ARPHRD_ETHER
    static let hardwareLoopback: UInt16 = 772  // ARPHRD_LOOPBACK

    // Route attributes, types and flags.
    static let routeDestination: UInt16 = 1  // RTA_DST
    static let routeOutputInterface: UInt16 = 4  // RTA_OIF
    static let routeGateway: UInt16 = 5  // RTA_GATEWAY
    static let routePriority: UInt16 = 6  // RTA_PRIORITY
    static let routeMultipath: UInt16 = 9  // RTA_MULTIPATH
    static let routeTable: UInt16 = 15  // RTA_TABLE
    static let routeTypeUnicast: UInt8 = 1  // RTN_UNICAST
    static let routeTypeLocal: UInt8 = 2  // RTN_LOCAL
    static let tableMain: UInt32 = 254  // RT_TABLE_MAIN
    static let nextHopDead: UInt32 = 0x1  // RTNH_F_DEAD
    static let nextHopLinkDown: UInt32 = 0x10  // RTNH_F_LINKDOWN
    static let lookupTable: UInt32 = 0x1000  // RTM_F_LOOKUP_TABLE

    /// Attribute types carry NLA_F_NESTED and NLA_F_NET_BYTEORDER in their top bits.
    static let attributeTypeMask: UInt16 = 0x3fff

    static let addressFamilyIPv4: UInt8 = 2  // AF_INET
    static let addressFamilyIPv6: UInt8 = 10  // AF_INET6
}
