extension NetlinkMessage {
    /// Parses every message in one buffer read from a netlink socket.
    ///
    /// Every length is checked against the bytes that are really there before anything is read:
    /// a truncated header, a `nlmsg_len` or `rta_len` that runs past its container, a fixed
    /// header (`ifinfomsg`, `rtmsg`, `nlmsgerr`) shorter than its layout, or an attribute of the
    /// wrong size throws ``ReachabilityError/Code/malformedMessage`` with the offending offset.
    static func parse(_ bytes: [UInt8]) throws(ReachabilityError) -> [NetlinkMessage] {
        var messages: [NetlinkMessage] = []
        var offset = 0
        while offset < bytes.count {
            let reader = ByteReader(bytes: bytes)
            guard bytes.count - offset >= Netlink.headerSize else {
                throw malformed("\(bytes.count - offset) bytes left, too few for a netlink header", at: offset)
            }
            let length = Int(try reader.uint32(at: offset))
            guard length >= Netlink.headerSize else {
                throw malformed("nlmsg_len \(length) is shorter than the header", at: offset)
            }
            guard length <= bytes.count - offset else {
                throw malformed("nlmsg_len \(length) runs past the \(bytes.count - offset) bytes left", at: offset)
            }
            let type = try reader.uint16(at: offset + 4)
            let payload = (offset + Netlink.headerSize)..<(offset + length)
            messages.append(
                NetlinkMessage(
                    type: type,
                    flags: try reader.uint16(at: offset + 6),
                    sequence: try reader.uint32(at: offset + 8),
                    portID: try reader.uint32(at: offset + 12),
                    payload: try parsePayload(type: type, in: payload, of: reader)
                )
            )
            // The last message's padding may be missing; never step past the end.
            offset = min(offset + Netlink.aligned(length), bytes.count)
        }
        return messages
    }

    private static func parsePayload(
        type: UInt16,
        in range: Range<Int>,
        of reader: ByteReader
    ) throws(ReachabilityError) -> Payload {
        switch type {
        case Netlink.error:
            // struct nlmsgerr { int error; struct nlmsghdr msg; ... }: only `error` is needed.
            guard range.count >= 4 else {
                throw malformed("NLMSG_ERROR payload of \(range.count) bytes", at: range.lowerBound)
            }
            let code = try reader.int32(at: range.lowerBound)
            return .error(errno: code == Int32.min ? Int32.max : -code)
        case Netlink.done: return .done
        case Netlink.overrun: return .overrun
        case Netlink.newLink, Netlink.deleteLink:
            return .link(try parseLink(isDeletion: type == Netlink.deleteLink, in: range, of: reader))
        case Netlink.newRoute, Netlink.deleteRoute:
            return .route(try parseRoute(isDeletion: type == Netlink.deleteRoute, in: range, of: reader))
        default: return .other
        }
    }

    /// struct ifinfomsg { u8 family; u8 pad; u16 type; s32 index; u32 flags; u32 change; } + IFLA_*.
    private static func parseLink(
        isDeletion: Bool,
        in range: Range<Int>,
        of reader: ByteReader
    ) throws(ReachabilityError) -> LinkMessage {
        let fixed = 16
        guard range.count >= fixed else {
            throw malformed("ifinfomsg of \(range.count) bytes, 16 needed", at: range.lowerBound)
        }
        var link = LinkMessage(
            isDeletion: isDeletion,
            hardwareType: try reader.uint16(at: range.lowerBound + 2),
            index: try reader.int32(at: range.lowerBound + 4),
            flags: try reader.uint32(at: range.lowerBound + 8),
            name: nil,
            operationalState: nil
        )
        for attribute in try attributes(in: (range.lowerBound + fixed)..<range.upperBound, of: reader) {
            switch attribute.type {
            case Netlink.linkName:
                let raw = reader.bytes[attribute.value].prefix { $0 != 0 }
                link.name = String(decoding: raw, as: UTF8.self)
            case Netlink.linkOperationalState:
                guard attribute.value.count >= 1 else { throw malformed("empty IFLA_OPERSTATE", at: attribute.offset) }
                link.operationalState = try reader.uint8(at: attribute.value.lowerBound)
            default: break
            }
        }
        return link
    }

    /// struct rtmsg { u8 family, dst_len, src_len, tos, table, protocol, scope, type; u32 flags; } + RTA_*.
    private static func parseRoute(
        isDeletion: Bool,
        in range: Range<Int>,
        of reader: ByteReader
    ) throws(ReachabilityError) -> RouteMessage {
        let fixed = 12
        guard range.count >= fixed else {
            throw malformed("rtmsg of \(range.count) bytes, 12 needed", at: range.lowerBound)
        }
        let base = range.lowerBound
        let family = try reader.uint8(at: base)
        var route = RouteMessage(
            isDeletion: isDeletion,
            family: family,
            destinationPrefixLength: try reader.uint8(at: base + 1),
            table: UInt32(try reader.uint8(at: base + 4)),
            routeType: try reader.uint8(at: base + 7),
            flags: try reader.uint32(at: base + 8),
            destination: nil,
            gateway: nil,
            priority: nil,
            nextHops: []
        )
        var outputInterface: Int32?
        for attribute in try attributes(in: (base + fixed)..<range.upperBound, of: reader) {
            switch attribute.type {
            case Netlink.routeDestination: route.destination = try address(attribute, family: family, of: reader)
            case Netlink.routeGateway: route.gateway = try address(attribute, family: family, of: reader)
            case Netlink.routeOutputInterface: outputInterface = try reader.int32(exactly: attribute)
            case Netlink.routePriority: route.priority = try reader.uint32(exactly: attribute)
            case Netlink.routeTable: route.table = try reader.uint32(exactly: attribute)
            case Netlink.routeMultipath: route.nextHops = try nextHops(in: attribute.value, family: family, of: reader)
            default: break
            }
        }
        if route.nextHops.isEmpty, let outputInterface {
            route.nextHops = [.init(interfaceIndex: outputInterface, flags: route.flags, gateway: route.gateway)]
        }
        return route
    }

    /// RTA_MULTIPATH: struct rtnexthop { u16 len; u8 flags; u8 hops; s32 ifindex; } + RTA_*, repeated.
    private static func nextHops(
        in range: Range<Int>,
        family: UInt8,
        of reader: ByteReader
    ) throws(ReachabilityError) -> [RouteMessage.NextHop] {
        var hops: [RouteMessage.NextHop] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard range.upperBound - offset >= 8 else { throw malformed("rtnexthop truncated", at: offset) }
            let length = Int(try reader.uint16(at: offset))
            guard length >= 8, length <= range.upperBound - offset else {
                throw malformed("rtnh_len \(length) does not fit its RTA_MULTIPATH", at: offset)
            }
            var hop = RouteMessage.NextHop(
                interfaceIndex: try reader.int32(at: offset + 4),
                flags: UInt32(try reader.uint8(at: offset + 2)),
                gateway: nil
            )
            for attribute in try attributes(in: (offset + 8)..<(offset + length), of: reader)
            where attribute.type == Netlink.routeGateway {
                hop.gateway = try address(attribute, family: family, of: reader)
            }
            hops.append(hop)
            offset = min(offset + Netlink.aligned(length), range.upperBound)
        }
        return hops
    }

    /// One `rtattr`/`nlattr`: its type (flags masked off), where its value lies, where it starts.
    struct Attribute {
        var type: UInt16
        var value: Range<Int>
        var offset: Int
    }

    /// struct rtattr { u16 len; u16 type; } + value, each 4-byte aligned.
    static func attributes(in range: Range<Int>, of reader: ByteReader) throws(ReachabilityError) -> [Attribute] {
        var result: [Attribute] = []
        var offset = range.lowerBound
        while offset < range.upperBound {
            guard range.upperBound - offset >= 4 else {
                throw malformed("\(range.upperBound - offset) stray bytes after the attributes", at: offset)
            }
            let length = Int(try reader.uint16(at: offset))
            guard length >= 4, length <= range.upperBound - offset else {
                throw malformed(
                    "rta_len \(length) does not fit the \(range.upperBound - offset) bytes left",
                    at: offset
                )
            }
            let type = try reader.uint16(at: offset + 2) & Netlink.attributeTypeMask
            result.append(Attribute(type: type, value: (offset + 4)..<(offset + length), offset: offset))
            offset = min(offset + Netlink.aligned(length), range.upperBound)
        }
        return result
    }

    private static func address(
        _ attribute: Attribute,
        family: UInt8,
        of reader: ByteReader
    ) throws(ReachabilityError) -> IPAddress {
        let expected = family == Netlink.addressFamilyIPv4 ? 4 : family == Netlink.addressFamilyIPv6 ? 16 : -1
        guard attribute.value.count == expected, let address = IPAddress(bytes: Array(reader.bytes[attribute.value]))
        else {
            throw malformed(
                "address attribute of \(attribute.value.count) bytes for family \(family)",
                at: attribute.offset
            )
        }
        return address
    }

    static func malformed(_ reason: String, at offset: Int) -> ReachabilityError {
        ReachabilityError(.malformedMessage, "malformed netlink message: \(reason) (offset \(offset))", offset: offset)
    }
}

/// Bounds-checked reads of host-order integers (netlink's byte order) from a byte array.
struct ByteReader {
    let bytes: [UInt8]

    func uint8(at offset: Int) throws(ReachabilityError) -> UInt8 {
        guard offset >= 0, offset < bytes.count else { throw NetlinkMessage.malformed("read past the end", at: offset) }
        return bytes[offset]
    }

    func uint16(at offset: Int) throws(ReachabilityError) -> UInt16 {
        UInt16(truncatingIfNeeded: try littleEndian(at: offset, count: 2)).littleEndianToHost
    }

    func uint32(at offset: Int) throws(ReachabilityError) -> UInt32 {
        UInt32(truncatingIfNeeded: try littleEndian(at: offset, count: 4)).littleEndianToHost
    }

    func int32(at offset: Int) throws(ReachabilityError) -> Int32 {
        Int32(bitPattern: try uint32(at: offset))
    }

    /// A 4-byte attribute value (`RTA_OIF`, `RTA_PRIORITY`, `RTA_TABLE`) that must be exactly 4 bytes.
    func uint32(exactly attribute: NetlinkMessage.Attribute) throws(ReachabilityError) -> UInt32 {
        guard attribute.value.count == 4 else {
            throw NetlinkMessage.malformed(
                "attribute \(attribute.type) of \(attribute.value.count) bytes, 4 expected",
                at: attribute.offset
            )
        }
        return try uint32(at: attribute.value.lowerBound)
    }

    func int32(exactly attribute: NetlinkMessage.Attribute) throws(ReachabilityError) -> Int32 {
        Int32(bitPattern: try uint32(exactly: attribute))
    }

    private func littleEndian(at offset: Int, count: Int) throws(ReachabilityError) -> UInt64 {
        guard offset >= 0, count <= bytes.count, offset <= bytes.count - count else {
            throw NetlinkMessage.malformed("read of \(count) bytes past the end", at: offset)
        }
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(bytes[offset + index]) << (8 * index) }
        return value
    }
}

extension FixedWidthInteger {
    /// The value assembled from bytes read in little-endian order, in host order.
    fileprivate var littleEndianToHost: Self { Self(littleEndian: self) }
}
