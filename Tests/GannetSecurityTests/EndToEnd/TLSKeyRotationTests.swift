import Foundation
import GannetSecurity
import GannetTestSupport
import Testing

/// Issue 16: a server that presents another key on its next connection (Tests/Servers/tls_fault_server.py,
/// `rotating` port: odd connections the good leaf, even ones the RSA leaf, both valid for
/// `localhost` under the test CA). A TLS session from the first connection must not let the
/// second skip the pinning evaluator: a server presenting another key cannot resume the first
/// key's session, so that connection is a full handshake the evaluator judges. The third, with
/// the first key again, may resume the first connection's session (approved in the same trust
/// scope, docs/engine.md "TLS session resumption"), or be judged again.
@Suite("End to end: a key that changes between connections is evaluated again")
struct TLSKeyRotationTests {
    /// One line the server printed per handshake.
    private struct ServerHandshake: Decodable, Equatable {
        var connection: Int
        var leaf: String
        var resumed: Bool?
        var failed: Bool?
    }

    @Test func thePinIsCheckedOnEveryNewConnection() async throws {
        let servers = try EndToEnd.servers()
        let good = servers.certificates.leaf(.good)
        let other = servers.certificates.leaf(.rsa)
        let server = try HelperServer(
            script: "tls_fault_server.py",
            arguments: [good.chain ?? good.pem, good.privateKey, other.chain ?? other.pem, other.privateKey]
        )
        defer { server.stop() }
        let port = try #require(try await server.ports()["rotating"])
        let url = URL(string: "https://localhost:\(port)/")!

        let pinned = CountingEvaluator(
            PublicKeysTrustEvaluator(
                pins: try PinSet([try EndToEnd.leaf(.good).publicKeyPin]),
                trustStore: try EndToEnd.testCA()
            )
        )
        let manager = EndToEnd.manager(pinned)
        defer { manager.invalidateAndCancel() }

        // 1st connection: the pinned key. 2nd: another key, valid for the host, under the same
        // CA: only the pin tells it apart. 3rd: the pinned key again.
        let first = await EndToEnd.get(url, with: manager)
        #expect(first.response?.statusCode == 200, "\(String(describing: first.error))")
        let second = await EndToEnd.get(url, with: manager)
        #expect(
            Handshake(second) == .refused(.pinMismatch, .serverCertificateUntrusted),
            "\(String(describing: second.error))"
        )
        let third = await EndToEnd.get(url, with: manager)
        #expect(third.response?.statusCode == 200, "\(String(describing: third.error))")

        let decoder = JSONDecoder()
        var seen: [ServerHandshake] = []
        for index in 1...3 {
            seen.append(try decoder.decode(ServerHandshake.self, from: Data(try await server.line(index).utf8)))
        }
        // One thread per connection prints, so the lines may come in any order.
        seen.sort { $0.connection < $1.connection }
        #expect(seen.map(\.connection) == [1, 2, 3])
        #expect(seen.map(\.leaf) == ["first", "other", "first"])
        // The first and the other key's connections were full handshakes, each judged; the
        // third was judged unless it resumed the first one's session.
        #expect(seen[0].resumed != true && seen[1].resumed != true, "\(seen)")
        let thirdResumed = seen[2].resumed == true
        #expect(pinned.count == (thirdResumed ? 2 : 3), "\(seen), \(pinned.count) evaluations")
    }
}
