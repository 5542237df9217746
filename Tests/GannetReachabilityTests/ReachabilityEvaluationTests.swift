import Testing

@testable import GannetReachability

/// The reachability rules, fed with parsed captured messages (no I/O).
@Suite("Reachability evaluation")
struct ReachabilityEvaluationTests {
    /// lo (1), vA (2) and vC (3), all up with carrier, as the captured link dump has them.
    private func dumpedLinks() throws -> [LinkMessage] {
        try (NetlinkMessage.parse(CapturedNetlink.linkDumpPart1) + NetlinkMessage.parse(CapturedNetlink.linkDumpPart2))
            .compactMap {
                if case .link(let link) = $0.payload { link } else { nil }
            }
    }

    private func evaluation(_ links: [LinkMessage], wireless: Set<String> = []) -> ReachabilityEvaluation {
        ReachabilityEvaluation(
            interfaces: links.map {
                .init(
                    link: $0,
                    kind: .classify(hardwareType: $0.hardwareType, isWireless: wireless.contains($0.name ?? ""))
                )
            }
        )
    }

    private func route(_ bytes: [UInt8]) throws -> RouteMessage {
        let message = try #require(try NetlinkMessage.parse(bytes).first)
        guard case .route(let route) = message.payload else { throw Unexpected() }
        return route
    }

    struct Unexpected: Error {}

    private var carrierLostLink: LinkMessage {
        get throws {
            guard case .link(let link) = try NetlinkMessage.parse(CapturedNetlink.carrierLost)[0].payload else {
                throw Unexpected()
            }
            return link
        }
    }

    @Test("A route through an interface with carrier is reachable; the same route without carrier is not")
    func carrier() throws {
        let peer = IPAddress("10.213.0.2")!
        let lookup = ReachabilityEvaluation.Lookup.route(try route(CapturedNetlink.routeLookupPeer))
        #expect(evaluation(try dumpedLinks()).status(of: peer, lookup: lookup) == .reachableViaEthernet)
        #expect(evaluation(try dumpedLinks(), wireless: ["vA"]).status(of: peer, lookup: lookup) == .reachableViaWiFi)
        let withoutCarrier = try dumpedLinks().filter { $0.index != 2 } + [carrierLostLink]
        #expect(evaluation(withoutCarrier).status(of: peer, lookup: lookup) == .notReachable)
        // An interface the dump did not list (gone since) does not count either.
        #expect(
            evaluation(try dumpedLinks().filter { $0.index != 2 }).status(of: peer, lookup: lookup) == .notReachable
        )
    }

    @Test("No route (NLMSG_ERROR), or a route type that drops packets, is not reachable")
    func noRoute() throws {
        let links = evaluation(try dumpedLinks())
        let target = IPAddress("203.0.113.9")!
        #expect(links.status(of: target, lookup: .failed(errno: 101)) == .notReachable)
        var blackhole = try route(CapturedNetlink.routeLookupPeer)
        blackhole.routeType = 6  // RTN_BLACKHOLE
        #expect(links.status(of: target, lookup: .route(blackhole)) == .notReachable)
        var linkDown = try route(CapturedNetlink.routeLookupPeer)
        linkDown.nextHops[0].flags = Netlink.nextHopLinkDown
        #expect(links.status(of: target, lookup: .route(linkDown)) == .notReachable)
    }

    @Test("Loopback routes count only for loopback destinations")
    func loopback() throws {
        let links = evaluation(try dumpedLinks())
        let local = ReachabilityEvaluation.Lookup.route(try route(CapturedNetlink.routeLookupLoopbackV6))
        #expect(links.status(of: IPAddress("::1")!, lookup: local) == .reachableViaOther)
        // The machine's own address routes through lo too: not a sign any network is there.
        #expect(links.status(of: IPAddress("2001:db8::5")!, lookup: local) == .notReachable)
    }

    @Test("Several addresses: the first reachable one decides; none at all is not reachable")
    func severalAddresses() throws {
        let links = evaluation(try dumpedLinks())
        let peer = ReachabilityEvaluation.Lookup.route(try route(CapturedNetlink.routeLookupPeer))
        let status = links.status(of: [
            (IPAddress("2001:db8::1")!, .failed(errno: 101)),
            (IPAddress("10.213.0.2")!, peer),
        ])
        #expect(status == .reachableViaEthernet)
        #expect(links.status(of: []) == .notReachable)
    }

    @Test("Any network: a default route through a usable interface, and nothing else")
    func defaultRoute() throws {
        let links = try dumpedLinks()
        let added = try route(CapturedNetlink.defaultRouteAdded)
        let deleted = try route(CapturedNetlink.defaultRouteDeleted)
        let connected = try NetlinkMessage.parse(CapturedNetlink.adminUpWithRoutes).compactMap {
            if case .route(let route) = $0.payload { route } else { nil }
        }
        #expect(evaluation(links).defaultRouteStatus(routes: connected + [added]) == .reachableViaEthernet)
        #expect(evaluation(links).defaultRouteStatus(routes: connected) == .notReachable)
        #expect(evaluation(links).defaultRouteStatus(routes: [deleted]) == .notReachable)
        let withoutCarrier = links.filter { $0.index != 2 } + [try carrierLostLink]
        #expect(evaluation(withoutCarrier).defaultRouteStatus(routes: [added]) == .notReachable)
        var otherTable = added
        otherTable.table = 100
        #expect(evaluation(links).defaultRouteStatus(routes: [otherTable]) == .notReachable)
    }

    @Test("Multipath: a dead first hop leaves the second; the lowest metric picks the kind")
    func multipathAndMetrics() throws {
        let links = try dumpedLinks()
        var multipath = try route(CapturedNetlink.multipathRouteAdded)
        let target = IPAddress("198.51.100.7")!
        let withoutVA = links.filter { $0.index != 2 } + [try carrierLostLink]
        #expect(
            evaluation(withoutVA, wireless: ["vC"]).status(of: target, lookup: .route(multipath)) == .reachableViaWiFi
        )
        multipath.nextHops[1].flags = Netlink.nextHopDead
        #expect(evaluation(withoutVA, wireless: ["vC"]).status(of: target, lookup: .route(multipath)) == .notReachable)

        var viaVA = try route(CapturedNetlink.defaultRouteAdded)
        viaVA.priority = 600
        var viaVC = viaVA
        viaVC.priority = 100
        viaVC.nextHops = [.init(interfaceIndex: 3, flags: 0, gateway: IPAddress("10.213.0.6"))]
        #expect(evaluation(links, wireless: ["vC"]).defaultRouteStatus(routes: [viaVA, viaVC]) == .reachableViaWiFi)
        #expect(
            evaluation(links, wireless: ["vA"]).defaultRouteStatus(routes: [viaVA, viaVC]) == .reachableViaEthernet
        )
    }

    @Test("Interface kinds: wireless wins, ARPHRD_ETHER is Ethernet, anything else is other")
    func kinds() {
        #expect(InterfaceKind.classify(hardwareType: 1, isWireless: true) == .wifi)
        #expect(InterfaceKind.classify(hardwareType: 1, isWireless: false) == .ethernet)
        #expect(InterfaceKind.classify(hardwareType: 772, isWireless: false) == .other)  // loopback
        #expect(InterfaceKind.classify(hardwareType: 65534, isWireless: false) == .other)  // tun (ARPHRD_NONE)
        #expect(InterfaceKind.classify(hardwareType: 512, isWireless: false) == .other)  // ppp
        #expect(!InterfaceKind.isWireless(interfaceName: "../../../etc"))
        #expect(!InterfaceKind.isWireless(interfaceName: "lo"))
    }
}
