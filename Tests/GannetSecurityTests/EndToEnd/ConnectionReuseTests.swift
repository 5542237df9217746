import Foundation
import GannetSecurity
import GannetTestSupport
import Testing

/// A connection or TLS session set up under one policy is never used under another: two
/// managers (one pinned wrongly, one not) on the same nginx, and two hosts with different
/// policies in one manager. nginx keeps a shared TLS session cache, so resumption would
/// happen unless the engine prevents it.
@Suite("End to end: connection reuse and TLS resumption never bypass a policy")
struct ConnectionReuseTests {
    private func wrongPins() throws -> PublicKeysTrustEvaluator {
        PublicKeysTrustEvaluator(
            pins: try PinSet([EndToEnd.certificate("untrustedRootCA").publicKeyPin]),
            trustStore: try EndToEnd.testCA()
        )
    }

    @Test(
        "An unpinned manager's connections and sessions do not let a wrongly pinned manager through, either order",
        arguments: [false, true]
    )
    func twoManagers(pinnedFirst: Bool) async throws {
        let servers = try EndToEnd.servers()
        let open = CountingEvaluator(DefaultTrustEvaluator(trustStore: try EndToEnd.testCA()))
        let pinned = CountingEvaluator(try wrongPins())
        let openManager = EndToEnd.manager(open)
        let pinnedManager = EndToEnd.manager(pinned)
        defer {
            openManager.invalidateAndCancel()
            pinnedManager.invalidateAndCancel()
        }
        var refusedMarkers: [String] = []
        if pinnedFirst {
            let (url, marker) = try EndToEnd.markedURL(.good)
            #expect(
                Handshake(await EndToEnd.get(url, with: pinnedManager))
                    == .refused(.pinMismatch, .serverCertificateUntrusted)
            )
            refusedMarkers.append(marker)
        }
        for _ in 0..<3 {
            let (url, _) = try EndToEnd.markedURL(.good)
            #expect(Handshake(await EndToEnd.get(url, with: openManager)) == .ok())
        }
        for _ in 0..<3 {
            let (url, marker) = try EndToEnd.markedURL(.good)
            #expect(
                Handshake(await EndToEnd.get(url, with: pinnedManager))
                    == .refused(.pinMismatch, .serverCertificateUntrusted)
            )
            refusedMarkers.append(marker)
        }
        let (url, _) = try EndToEnd.markedURL(.good)
        let again = await EndToEnd.get(url, with: openManager)
        #expect(Handshake(again) == .ok())
        #expect(again.metrics?.reusedConnection == true)
        // One handshake for the open manager, reused; every pinned attempt was a new handshake.
        #expect(open.count == 1)
        #expect(pinned.count == refusedMarkers.count)
        for marker in refusedMarkers { #expect(servers.accessLogLines(containing: marker).isEmpty) }
    }

    @Test("Two hosts of one server with different policies in one manager, either order", arguments: [false, true])
    func twoHostsOneManager(pinnedFirst: Bool) async throws {
        let servers = try EndToEnd.servers()
        let manager = EndToEnd.manager(
            try ServerTrustManager(
                evaluators: ["127.0.0.1": try wrongPins()],
                default: DefaultTrustEvaluator(trustStore: try EndToEnd.testCA())
            )
        )
        defer { manager.invalidateAndCancel() }
        let good = servers.tlsEndpoint(.good)
        let port = try #require(good.port)
        func url(_ host: String) -> (URL, String) {
            let marker = "id=\(UUID().uuidString)"
            return (URL(string: "https://\(host):\(port)/echo?\(marker)")!, marker)
        }
        let order =
            pinnedFirst
            ? ["127.0.0.1", "localhost", "127.0.0.1"] : ["localhost", "127.0.0.1", "localhost", "127.0.0.1"]
        for host in order {
            let (target, marker) = url(host)
            let outcome = Handshake(await EndToEnd.get(target, with: manager))
            if host == "localhost" {
                #expect(outcome == .ok())
                #expect(await servers.accessLogLines(containing: marker, atLeast: 1).count == 1)
            } else {
                #expect(outcome == .refused(.pinMismatch, .serverCertificateUntrusted))
                #expect(servers.accessLogLines(containing: marker).isEmpty)
            }
        }
    }
}
