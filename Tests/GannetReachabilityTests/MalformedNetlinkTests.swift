import Testing

@testable import GannetReachability

/// Truncated, inconsistent and corrupted input: always a typed error or a parse, never a crash
/// or a read outside the buffer.
@Suite("Malformed netlink input")
struct MalformedNetlinkTests {
    static let fixtures: [(String, [UInt8])] = [
        ("carrierLost", CapturedNetlink.carrierLost),
        ("adminUpWithRoutes", CapturedNetlink.adminUpWithRoutes),
        ("multipathRouteAdded", CapturedNetlink.multipathRouteAdded),
        ("linkDumpPart1", CapturedNetlink.linkDumpPart1),
        ("routeLookupLoopbackV6", CapturedNetlink.routeLookupLoopbackV6),
        ("routeLookupUnreachable", CapturedNetlink.routeLookupUnreachable),
    ]

    private func expectMalformed(
        _ bytes: [UInt8],
        at offset: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        do {
            let messages = try NetlinkMessage.parse(bytes)
            Issue.record("parsed \(messages.count) message(s) from malformed input", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .malformedMessage, sourceLocation: sourceLocation)
            if let offset { #expect(error.offset == offset, "\(error)", sourceLocation: sourceLocation) }
        }
    }

    /// The offsets where messages end in a well-formed buffer.
    private func boundaries(_ bytes: [UInt8]) -> Set<Int> {
        var ends: Set<Int> = [0]
        var offset = 0
        while offset + 4 <= bytes.count {
            let length = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
            offset += Netlink.aligned(length)
            ends.insert(min(offset, bytes.count))
        }
        return ends
    }

    @Test("Every truncation of a captured datagram is a malformedMessage error unless it falls between messages")
    func everyTruncation() throws {
        for (name, bytes) in Self.fixtures {
            let ends = boundaries(bytes)
            for length in 1..<bytes.count {
                let prefix = Array(bytes[0..<length])
                if ends.contains(length) {
                    #expect(throws: Never.self, "\(name) cut at \(length)") { try NetlinkMessage.parse(prefix) }
                } else {
                    expectMalformed(prefix)
                }
            }
        }
    }

    @Test("Header lengths that lie")
    func lyingHeaderLengths() {
        var tooShort = CapturedNetlink.defaultRouteAdded
        tooShort[0] = 8
        expectMalformed(tooShort, at: 0)
        var tooLong = CapturedNetlink.defaultRouteAdded
        tooLong[0] = 0x35
        expectMalformed(tooLong, at: 0)
        var huge = CapturedNetlink.defaultRouteAdded
        huge[3] = 0xff
        expectMalformed(huge, at: 0)
        // A second message whose header is cut: the error points at it.
        expectMalformed(CapturedNetlink.defaultRouteAdded + [0x10, 0, 0, 0, 0x18, 0], at: 52)
    }

    @Test("Attributes whose rta_len is too small, runs past the message or has the wrong size")
    func badAttributes() {
        // defaultRouteAdded: rtmsg at 16..<28, RTA_TABLE at 28, RTA_GATEWAY at 36, RTA_OIF at 44.
        var zeroLength = CapturedNetlink.defaultRouteAdded
        zeroLength[28] = 2
        expectMalformed(zeroLength, at: 28)
        var pastEnd = CapturedNetlink.defaultRouteAdded
        pastEnd[44] = 12
        expectMalformed(pastEnd, at: 44)
        var shortInterface = CapturedNetlink.defaultRouteAdded
        shortInterface[44] = 6  // RTA_OIF of 2 bytes
        expectMalformed(shortInterface, at: 44)
        var shortGateway = CapturedNetlink.defaultRouteAdded
        shortGateway[36] = 7  // RTA_GATEWAY of 3 bytes for AF_INET
        expectMalformed(shortGateway, at: 36)
        var ipv6Gateway = CapturedNetlink.defaultRouteAdded
        ipv6Gateway[16] = Netlink.addressFamilyIPv6  // a 4-byte gateway in an AF_INET6 route
        expectMalformed(ipv6Gateway, at: 36)
    }

    @Test("Fixed headers shorter than their layout")
    func shortFixedHeaders() {
        // An RTM_NEWROUTE of 8 payload bytes (rtmsg needs 12), an RTM_NEWLINK of 12 (ifinfomsg
        // needs 16), an NLMSG_ERROR of 2 (nlmsgerr's error needs 4).
        expectMalformed(header(type: Netlink.newRoute, payload: 8), at: 16)
        expectMalformed(header(type: Netlink.newLink, payload: 12), at: 16)
        expectMalformed(header(type: Netlink.error, payload: 2), at: 16)
        #expect(throws: Never.self) { try NetlinkMessage.parse(header(type: Netlink.done, payload: 0)) }
        #expect(throws: Never.self) { try NetlinkMessage.parse(header(type: 0x7fff, payload: 3)) }
    }

    @Test("A broken rtnexthop inside RTA_MULTIPATH")
    func badMultipath() {
        // multipathRouteAdded: RTA_MULTIPATH at 44, first rtnexthop at 48 with rtnh_len 16.
        var tooShort = CapturedNetlink.multipathRouteAdded
        tooShort[48] = 4
        expectMalformed(tooShort, at: 48)
        var tooLong = CapturedNetlink.multipathRouteAdded
        tooLong[48] = 40
        expectMalformed(tooLong, at: 48)
    }

    @Test("Ten thousand corrupted datagrams: each parses or throws malformedMessage")
    func corruption() {
        var generator = SplitMix64(seed: 0x6761_6e6e_6574)
        for round in 0..<10_000 {
            var bytes = Self.fixtures[round % Self.fixtures.count].1
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            if generator.next() % 3 == 0 { bytes.removeLast(Int(generator.next() % UInt64(bytes.count))) }
            do {
                _ = try NetlinkMessage.parse(bytes)
            } catch {
                #expect(error.code == .malformedMessage)
                #expect((error.offset ?? -1) >= 0 && (error.offset ?? .max) <= bytes.count)
            }
        }
    }

    private func header(type: UInt16, payload: Int) -> [UInt8] {
        let length = UInt32(16 + payload)
        return withUnsafeBytes(of: length) { Array($0) } + withUnsafeBytes(of: type) { Array($0) }
            + [0, 0] + [UInt8](repeating: 0, count: 8 + payload)
    }
}

/// A small deterministic generator, so a failing corruption round can be replayed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
