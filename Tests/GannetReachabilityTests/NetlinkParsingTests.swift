import Testing

@testable import GannetReachability

/// The rtnetlink parser against datagrams captured from the kernel (CapturedNetlink.swift).
@Suite("Netlink message parsing from captured bytes")
struct NetlinkParsingTests {
    private func single(_ bytes: [UInt8]) throws -> NetlinkMessage {
        let messages = try NetlinkMessage.parse(bytes)
        try #require(messages.count == 1)
        return messages[0]
    }

    private func link(_ message: NetlinkMessage) throws -> LinkMessage {
        guard case .link(let link) = message.payload else { throw Unexpected(payload: message.payload) }
        return link
    }

    private func route(_ message: NetlinkMessage) throws -> RouteMessage {
        guard case .route(let route) = message.payload else { throw Unexpected(payload: message.payload) }
        return route
    }

    struct Unexpected: Error { var payload: NetlinkMessage.Payload }

    @Test("RTM_NEWLINK after the peer lost carrier: up, not running, not usable")
    func carrierLost() throws {
        let message = try single(CapturedNetlink.carrierLost)
        #expect(message.type == Netlink.newLink)
        #expect(message.sequence == 0 && message.portID == 0)
        let link = try link(message)
        #expect(link.name == "vA")
        #expect(link.index == 2)
        #expect(link.hardwareType == Netlink.hardwareEthernet)
        #expect(link.flags & Netlink.interfaceUp != 0)
        #expect(link.flags & Netlink.interfaceRunning == 0)
        #expect(link.operationalState == 2)
        #expect(!link.isUsable && !link.isDeletion && !link.isLoopback)
    }

    @Test("RTM_NEWLINK after the peer came back: running, operstate up, usable")
    func carrierBack() throws {
        let link = try link(single(CapturedNetlink.carrierBack))
        #expect(link.name == "vA")
        #expect(link.operationalState == 6)
        #expect(link.isUsable)
    }

    @Test("Several messages in one buffer: a link and the routes the kernel added with it")
    func concatenatedNotifications() throws {
        let messages = try NetlinkMessage.parse(CapturedNetlink.adminUpWithRoutes)
        #expect(messages.map(\.type) == [Netlink.newLink, Netlink.newRoute, Netlink.newRoute])
        let connected = try route(messages[1])
        #expect(connected.family == Netlink.addressFamilyIPv4)
        #expect(connected.destination == IPAddress("10.213.0.0"))
        #expect(connected.destinationPrefixLength == 30)
        #expect(connected.table == Netlink.tableMain)
        #expect(connected.routeType == Netlink.routeTypeUnicast)
        #expect(connected.nextHops.map(\.interfaceIndex) == [2])
        let broadcast = try route(messages[2])
        #expect(broadcast.destination == IPAddress("10.213.0.3"))
        #expect(broadcast.table == 255)  // RT_TABLE_LOCAL
        #expect(broadcast.routeType == 3)  // RTN_BROADCAST
    }

    @Test("A default route added and deleted: RTA_GATEWAY, RTA_OIF, RTA_TABLE")
    func defaultRoute() throws {
        let added = try route(single(CapturedNetlink.defaultRouteAdded))
        #expect(added.isDefault && !added.isDeletion)
        #expect(added.destination == nil)
        #expect(added.gateway == IPAddress("10.213.0.2"))
        #expect(added.table == Netlink.tableMain)
        #expect(added.nextHops == [.init(interfaceIndex: 2, flags: 0, gateway: IPAddress("10.213.0.2"))])
        let deleted = try single(CapturedNetlink.defaultRouteDeleted)
        #expect(deleted.type == Netlink.deleteRoute)
        #expect(try route(deleted).isDeletion)
    }

    @Test("RTA_MULTIPATH: one next hop per rtnexthop, each with its gateway")
    func multipath() throws {
        let route = try route(single(CapturedNetlink.multipathRouteAdded))
        #expect(route.destination == IPAddress("198.51.100.0"))
        #expect(route.destinationPrefixLength == 24)
        #expect(route.nextHops.map(\.interfaceIndex) == [2, 3])
        #expect(route.nextHops.map(\.gateway) == [IPAddress("10.213.0.2"), IPAddress("10.213.0.6")])
        #expect(route.nextHops.allSatisfy { $0.isAlive })
    }

    @Test("A multipart link dump over three datagrams ends with NLMSG_DONE")
    func linkDump() throws {
        let first = try NetlinkMessage.parse(CapturedNetlink.linkDumpPart1)
        let second = try NetlinkMessage.parse(CapturedNetlink.linkDumpPart2)
        let last = try NetlinkMessage.parse(CapturedNetlink.linkDumpDone)
        let links = try (first + second).map(link)
        #expect(links.map(\.name) == ["lo", "vA", "vC"])
        #expect(links.map(\.index) == [1, 2, 3])
        #expect((first + second).allSatisfy { $0.isMultipart && $0.sequence == 7 })
        #expect(links[0].isLoopback && links[0].hardwareType == Netlink.hardwareLoopback)
        #expect(links.allSatisfy { $0.isUsable })
        #expect(last.map(\.payload) == [.done])
        #expect(last[0].sequence == 7)
    }

    @Test("A route lookup's answer: the route, its output interface and table")
    func routeLookup() throws {
        let message = try single(CapturedNetlink.routeLookupPeer)
        #expect(message.sequence == 9 && !message.isMultipart)
        let route = try route(message)
        #expect(route.destination == IPAddress("10.213.0.2"))
        #expect(route.destinationPrefixLength == 32)
        #expect(route.routeType == Netlink.routeTypeUnicast)
        #expect(route.table == Netlink.tableMain)
        #expect(route.nextHops.map(\.interfaceIndex) == [2])

        let loopback = try self.route(single(CapturedNetlink.routeLookupLoopbackV6))
        #expect(loopback.family == Netlink.addressFamilyIPv6)
        #expect(loopback.destination == IPAddress("::1"))
        #expect(loopback.routeType == Netlink.routeTypeLocal)
        #expect(loopback.nextHops.map(\.interfaceIndex) == [1])
    }

    @Test("NLMSG_ERROR carries the positive errno and the request's sequence")
    func errorReply() throws {
        let message = try single(CapturedNetlink.routeLookupUnreachable)
        #expect(message.type == Netlink.error)
        #expect(message.sequence == 11)
        #expect(message.payload == .error(errno: 101))  // ENETUNREACH
    }
}
