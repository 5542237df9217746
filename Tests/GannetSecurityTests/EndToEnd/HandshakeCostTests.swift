import Foundation
import GannetSecurity
import GannetTestSupport
import Testing

/// Every new TLS connection is evaluated, with and without pinning; the run prints how many new
/// connections per second each configuration completes (the figure in docs/security.md):
///
/// ```sh
/// GANNET_HANDSHAKES=2000 swift test -c release --filter HandshakeCostTests
/// ```
@Suite("End to end: the cost of deciding trust in the handshake")
struct HandshakeCostTests {
    @Test("Each of N new connections is evaluated once; handshakes per second are printed")
    func handshakes() async throws {
        let servers = try EndToEnd.servers()
        let count = ProcessInfo.processInfo.environment["GANNET_HANDSHAKES"].flatMap(Int.init) ?? 100
        let root = try EndToEnd.certificate("rootCA")
        let intermediate = try EndToEnd.certificate("intermediateCA")
        let store = try EndToEnd.testCA()
        let configurations: [(String, (any ServerTrustEvaluating)?)] = [
            ("libcurl's own verification (no evaluator)", nil),
            ("DefaultTrustEvaluator (chain + host)", DefaultTrustEvaluator(trustStore: store)),
            ("PublicKeysTrustEvaluator (SPKI pin)", PublicKeysTrustEvaluator(pins: try PinSet([intermediate.publicKeyPin]), trustStore: store)),
            ("SecurityPolicy .certificate (root pinned)", {
                var policy = SecurityPolicy(pinningMode: .certificate, withPinnedCertificates: [root.derEncoded])
                policy.trustStore = store
                return policy
            }()),
        ]
        let url = servers.nginxTLS.appendingPathComponent("small")
        for (name, evaluator) in configurations {
            let counting = evaluator.map(CountingEvaluator.init)
            let manager = EndToEnd.manager(counting) {
                $0.tls.caFile = servers.certificates.caBundle
                $0.httpVersion = .http1_1
            }
            defer { manager.invalidateAndCancel() }
            // Connection: close makes every request a new TCP connection and a full handshake.
            for _ in 0..<10 { _ = await EndToEnd.get(url, with: manager, headers: ["Connection": "close"]) }
            let started = ContinuousClock.now
            var reused = 0
            var failed = 0
            for _ in 0..<count {
                let response = await EndToEnd.get(url, with: manager, headers: ["Connection": "close"])
                if response.response?.statusCode != 200 { failed += 1 }
                if response.metrics?.reusedConnection == true { reused += 1 }
            }
            let elapsed = ContinuousClock.now - started
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            #expect(failed == 0, "\(name)")
            #expect(reused == 0, "\(name)")
            if let counting { #expect(counting.count == count + 10, "\(name)") }
            print("handshakes: \(name): \(count) new connections in \(String(format: "%.2f", seconds)) s = "
                  + "\(Int(Double(count) / seconds)) per second")
        }
    }
}
