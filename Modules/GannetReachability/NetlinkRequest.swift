/// The requests Gannet sends to the kernel, as bytes: dumps of links and routes, and a route
/// lookup for one destination (what `ip route get` sends, which makes the kernel consult its
/// tables and transmit nothing).
struct NetlinkRequest: Hashable, Sendable {
    /// The message, header included, ready for `send`.
    let bytes: [UInt8]
    /// Its `nlmsg_seq`, which the reply carries.
    let sequence: UInt32
    /// A dump: the reply is multipart and ends with `NLMSG_DONE`.
    let isDump: Bool

    /// `RTM_GETLINK` with `NLM_F_DUMP`: every interface.
    static func dumpLinks(sequence: UInt32) -> NetlinkRequest {
        // ifinfomsg, all zero: any family, any interface.
        make(type: Netlink.getLink, dump: true, sequence: sequence, body: [UInt8](repeating: 0, count: 16))
    }

    /// `RTM_GETROUTE` with `NLM_F_DUMP` for one family (`AF_INET` or `AF_INET6`): every route.
    static func dumpRoutes(family: UInt8, sequence: UInt32) -> NetlinkRequest {
        var body = [UInt8](repeating: 0, count: 12)
        body[0] = family
        return make(type: Netlink.getRoute, dump: true, sequence: sequence, body: body)
    }

    /// `RTM_GETROUTE` for `destination`: the route the kernel would use, or an `NLMSG_ERROR`
    /// (`ENETUNREACH`, `EHOSTUNREACH`, ...) when there is none.
    static func lookupRoute(to destination: IPAddress, sequence: UInt32) -> NetlinkRequest {
        // rtmsg { family, dst_len = full length, src_len, tos, table, protocol, scope, type; flags }
        var body = [UInt8](repeating: 0, count: 12)
        body[0] = destination.family == .v4 ? Netlink.addressFamilyIPv4 : Netlink.addressFamilyIPv6
        body[1] = UInt8(destination.bytes.count * 8)
        body.replaceSubrange(8..<12, with: hostOrder(Netlink.lookupTable))
        // RTA_DST
        body += hostOrder(UInt16(4 + destination.bytes.count)) + hostOrder(Netlink.routeDestination) + destination.bytes
        return make(type: Netlink.getRoute, dump: false, sequence: sequence, body: body)
    }

    private static func make(type: UInt16, dump: Bool, sequence: UInt32, body: [UInt8]) -> NetlinkRequest {
        let flags = Netlink.flagRequest | (dump ? Netlink.flagDump : 0)
        var bytes = hostOrder(UInt32(Netlink.headerSize + body.count)) + hostOrder(type) + hostOrder(flags)
        bytes += hostOrder(sequence) + hostOrder(UInt32(0))  // nlmsg_pid 0: the kernel fills in the port
        bytes += body
        bytes += [UInt8](repeating: 0, count: Netlink.aligned(bytes.count) - bytes.count)
        return NetlinkRequest(bytes: bytes, sequence: sequence, isDump: dump)
    }

    private static func hostOrder<Value: FixedWidthInteger>(_ value: Value) -> [UInt8] {
        withUnsafeBytes(of: value) { Array($0) }
    }
}
