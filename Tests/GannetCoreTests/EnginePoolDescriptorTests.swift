import Foundation
import GannetTestSupport
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FaultsSerialSuites {
    /// Issue 26: managers that shared an engine thread leave nothing behind once released:
    /// their engines, connections and descriptors go, whether the thread stops with the last
    /// of them (docs/engine.md, "Engines shared across managers").
    @Suite("Engine pool: released managers leave no descriptor")
    struct EnginePoolDescriptorTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        @Test func managersSharingAThreadReturnEveryDescriptor() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            do {
                let first = ledger.makeManager()
                var second = ledger.makeManager()
                var others: [SessionManager] = []
                while second.engine.loop !== first.engine.loop && others.count < 100 {
                    others.append(second)
                    second = ledger.makeManager()
                }
                #expect(second.engine.loop === first.engine.loop, "no manager was placed beside the first")
                for manager in [first, second] {
                    for route in [FaultRoute.ok, .slowBody(bytes: 5, intervalMilliseconds: 20)] {
                        let outcome = try await Faults.run(manager, URLRequest(url: servers.url(route)))
                        #expect(outcome.response.error == nil, "\(outcome.summary)")
                    }
                }
                // One leaves while the other keeps its connections, then the other.
                first.invalidateAndCancel()
                let still = try await Faults.run(second, URLRequest(url: servers.url(.ok)))
                #expect(still.response.data == Data("ok".utf8), "\(still.summary)")
                for manager in others + [second] { manager.invalidateAndCancel() }
            }
            await ledger.expectReturned(within: 20)
        }
    }
}
