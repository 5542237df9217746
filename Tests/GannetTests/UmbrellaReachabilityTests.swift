import Gannet
import Testing

/// `import Gannet` alone brings reachability, as AFNetworking's core library did.
@Suite("Reachability through the umbrella module")
struct UmbrellaReachabilityTests {
    @Test("NetworkReachabilityManager is there with import Gannet, and monitors")
    func reachabilityIsExported() async throws {
        let manager = try NetworkReachabilityManager(address: "127.0.0.1")
        let updates = manager.statusUpdates
        try manager.startMonitoring()
        defer { manager.stopMonitoring() }
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .reachableViaOther)
    }
}
