import Foundation
import GannetSecurity
import GannetTestSupport
import Testing

/// Issue 15: TLS sessions are resumed within one trust scope (docs/engine.md, "TLS session
/// resumption"). A pinned client's second connection to nginx resumes the first one's session
/// instead of a full handshake, and a replaced evaluator never resumes a session the old one
/// approved. nginx logs `reused=r` for a resumed session (`$ssl_session_reused`).
@Suite("End to end: TLS session resumption within a trust scope")
struct SessionResumptionTests {
    /// GETs `path` with `Connection: close`, so that every request opens a new connection;
    /// returns the status and nginx's log line for it.
    private func get(_ manager: SessionManager) async throws -> (status: Int?, line: String?) {
        let (url, marker) = try EndToEnd.markedURL(.good, path: "small")
        var request = URLRequest(url: url)
        request.setValue("close", forHTTPHeaderField: "Connection")
        let response = await manager.response(for: request, serializer: .passthrough)
        let servers = try EndToEnd.servers()
        var line: String?
        if response.response != nil {
            _ = await eventually(within: 30) {
                line = servers.accessLogLines(containing: marker).first
                return line != nil
            }
        } else {
            line = servers.accessLogLines(containing: marker).first
        }
        return (response.response?.statusCode, line)
    }

    private func pinned() throws -> CountingEvaluator {
        CountingEvaluator(
            PublicKeysTrustEvaluator(
                pins: try PinSet([try EndToEnd.leaf(.good).publicKeyPin]),
                trustStore: try EndToEnd.testCA()
            )
        )
    }

    private func manager(_ evaluator: (any ServerTrustEvaluating)?) throws -> SessionManager {
        EndToEnd.manager(evaluator) {
            $0.httpVersion = .http1_1
            $0.tls.caFile = try? EndToEnd.servers().certificates.caBundle
        }
    }

    @Test func aPinnedClientResumesItsSessionOnANewConnection() async throws {
        let evaluator = try pinned()
        let manager = try manager(evaluator)
        defer { manager.invalidateAndCancel() }
        let first = try await get(manager)
        let second = try await get(manager)
        #expect(first.status == 200 && second.status == 200)
        #expect(first.line?.contains("reused=.") == true, "\(String(describing: first.line))")
        #expect(
            second.line?.contains("reused=r") == true,
            "the second connection was a full handshake: \(String(describing: second.line))"
        )
        #expect(
            first.line?.split(separator: " ").first { $0.hasPrefix("conn=") }
                != second.line?.split(separator: " ").first { $0.hasPrefix("conn=") }
        )
        // Only the full handshake asked the evaluator.
        #expect(evaluator.count == 1)
    }

    /// libcurl's own verification resumes too (a cache of its own scope).
    @Test func anUnpinnedClientResumesToo() async throws {
        let manager = try manager(nil)
        defer { manager.invalidateAndCancel() }
        _ = try await get(manager)
        let second = try await get(manager)
        #expect(second.status == 200)
        #expect(second.line?.contains("reused=r") == true, "\(String(describing: second.line))")
    }

    /// Leaving Gannet's evaluation for libcurl's verification on a live manager: the handle the
    /// manager kept verifies again (its options follow the scope), so a self-signed server that
    /// the old evaluator let through is refused before any request is sent.
    @Test func libcurlsVerificationTakesOverTheHandleAnEvaluatorUsed() async throws {
        let manager = try manager(DisabledTrustEvaluator())
        defer { manager.invalidateAndCancel() }
        let (url, marker) = try EndToEnd.markedURL(.selfSigned, path: "small")
        let accepted = await manager.response(for: URLRequest(url: url), serializer: .passthrough)
        #expect(accepted.response?.statusCode == 200, "\(String(describing: accepted.error))")
        let servers = try EndToEnd.servers()
        #expect(await eventually(within: 30) { !servers.accessLogLines(containing: marker).isEmpty })

        manager.setServerTrustEvaluator(nil)
        let (refusedURL, refusedMarker) = try EndToEnd.markedURL(.selfSigned, path: "small")
        let refused = await manager.response(for: URLRequest(url: refusedURL), serializer: .passthrough)
        #expect(refused.response == nil)
        #expect(
            (refused.error as? URLError)?.code == .serverCertificateUntrusted
                || (refused.error as? URLError)?.code == .serverCertificateHasUnknownRoot,
            "\(String(describing: refused.error))"
        )
        #expect(servers.accessLogLines(containing: refusedMarker).isEmpty, "a request was sent")
    }

    /// A new evaluator is a new trust scope: its first connection is a full handshake it judges,
    /// and one that refuses the server means no request is sent, although a session approved by
    /// the old evaluator was cached.
    @Test func aReplacedEvaluatorNeverResumesTheOldOnesSession() async throws {
        let old = try pinned()
        let manager = try manager(old)
        defer { manager.invalidateAndCancel() }
        #expect(try await get(manager).status == 200)

        let replacement = try pinned()
        manager.setServerTrustEvaluator(replacement)
        let afterReplacement = try await get(manager)
        #expect(afterReplacement.status == 200)
        #expect(afterReplacement.line?.contains("reused=.") == true, "\(String(describing: afterReplacement.line))")
        #expect(replacement.count == 1)

        let refusing = CountingEvaluator(
            PublicKeysTrustEvaluator(
                pins: try PinSet([try EndToEnd.certificate("untrustedRootCA").publicKeyPin]),
                trustStore: try EndToEnd.testCA()
            )
        )
        manager.setServerTrustEvaluator(refusing)
        let refused = try await get(manager)
        #expect(refused.status == nil)
        #expect(refused.line == nil, "a request was sent: \(String(describing: refused.line))")
        #expect(refusing.count == 1)
        #expect(old.count == 1)
    }
}
