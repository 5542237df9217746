import Testing

@testable import GannetReachability

/// The requests, byte for byte.
@Suite("Netlink requests")
struct NetlinkRequestTests {
    @Test("A route lookup is what the kernel echoed back in its NLMSG_ERROR for the captured request")
    func lookupMatchesKernelEcho() {
        // nlmsgerr = error (4 bytes) + the request as sent, so bytes 20..<56 are that request.
        let echoed = Array(CapturedNetlink.routeLookupUnreachable[20..<56])
        let request = NetlinkRequest.lookupRoute(to: IPAddress("203.0.113.9")!, sequence: 11)
        #expect(request.bytes == echoed)
        #expect(!request.isDump && request.sequence == 11)
    }

    @Test("An IPv6 lookup: AF_INET6, a /128 destination, a 20-byte RTA_DST")
    func lookupIPv6() throws {
        let request = NetlinkRequest.lookupRoute(to: IPAddress("2001:db8::1")!, sequence: 3)
        #expect(request.bytes.count == 16 + 12 + 20)
        #expect(request.bytes[0] == 48 && request.bytes[4] == UInt8(Netlink.getRoute))
        #expect(request.bytes[16] == Netlink.addressFamilyIPv6 && request.bytes[17] == 128)
        #expect(Array(request.bytes[28..<32]) == [20, 0, 1, 0])
        #expect(Array(request.bytes[32...]) == IPAddress("2001:db8::1")!.bytes)
    }

    @Test("Dumps carry NLM_F_REQUEST|NLM_F_DUMP and a zeroed header for the family asked")
    func dumps() {
        let links = NetlinkRequest.dumpLinks(sequence: 7)
        #expect(
            links.bytes == [32, 0, 0, 0, 18, 0, 0x01, 0x03, 7, 0, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
        )
        #expect(links.isDump)
        let routes = NetlinkRequest.dumpRoutes(family: Netlink.addressFamilyIPv6, sequence: 8)
        #expect(
            routes.bytes == [28, 0, 0, 0, 26, 0, 0x01, 0x03, 8, 0, 0, 0, 0, 0, 0, 0, 10]
                + [UInt8](repeating: 0, count: 11)
        )
    }
}
