import GannetReachability
import Testing

@Suite("IP addresses and targets")
struct IPAddressTests {
    @Test("IPv4 and IPv6 text round-trips; anything else is rejected")
    func parsing() {
        #expect(IPAddress("192.0.2.1")?.bytes == [192, 0, 2, 1])
        #expect(IPAddress("192.0.2.1")?.family == .v4)
        #expect(IPAddress("2001:db8::1")?.family == .v6)
        #expect(IPAddress("2001:db8::1")?.description == "2001:db8::1")
        #expect(IPAddress("10.0.0.1")?.description == "10.0.0.1")
        for bad in ["", "256.0.0.1", "1.2.3", "example.com", "::g", "1.2.3.4 "] {
            #expect(IPAddress(bad) == nil, "\(bad)")
        }
        #expect(IPAddress(bytes: [1, 2, 3]) == nil)
    }

    @Test("Loopback and unspecified addresses")
    func classes() {
        #expect(IPAddress("127.0.0.1")!.isLoopback && IPAddress("127.9.8.7")!.isLoopback)
        #expect(IPAddress("::1")!.isLoopback && IPAddress("::ffff:127.0.0.1")!.isLoopback)
        #expect(!IPAddress("10.0.0.1")!.isLoopback && !IPAddress("::2")!.isLoopback)
        #expect(IPAddress("0.0.0.0")!.isUnspecified && IPAddress("::")!.isUnspecified)
    }

    @Test("Bad host names and addresses are typed errors")
    func badTargets() {
        for name in ["", "a b", "host/name", "tab\there", String(repeating: "a", count: 254)] {
            #expect(throws: ReachabilityError.self, "\(name.debugDescription)") {
                try NetworkReachabilityManager(domain: name)
            }
            do { _ = try NetworkReachabilityManager(domain: name) } catch { #expect(error.code == .invalidHost) }
        }
        do {
            _ = try NetworkReachabilityManager(address: "300.1.1.1")
            Issue.record("an invalid address was accepted")
        } catch {
            #expect(error.code == .invalidAddress)
        }
        #expect(throws: Never.self) { try NetworkReachabilityManager(domain: "[::1]") }
    }
}
