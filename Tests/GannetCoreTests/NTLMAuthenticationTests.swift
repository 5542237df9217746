import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 12: NTLM computed by libcurl, against Tests/Servers/ntlm_server.py (pyspnego's acceptor
/// checks the answer against one account). The handler sees the `NTLM` challenge after the
/// first `401`; libcurl's negotiate and authenticate messages follow on one connection.
@Suite("NTLM")
struct NTLMAuthenticationTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    private func withServer(_ body: (URL, HelperServer) async throws -> Void) async throws {
        let server = try HelperServer(script: "ntlm_server.py", arguments: ["GANNET", "u", "p"])
        defer { server.stop() }
        let port = try #require(try await server.ports()["plain"])
        try await body(URL(string: "http://127.0.0.1:\(port)/ntlm")!, server)
    }

    @Test func ntlmIsAnsweredThroughTheHandler() async throws {
        try await withServer { url, server in
            let manager = SessionManager(configuration: .ephemeral)
            defer { manager.invalidateAndCancel() }
            let seen = Mutex<[AuthenticationChallenge]>([])
            manager.setAuthenticationChallengeHandler { _, _, challenge in
                seen.withLock { $0.append(challenge) }
                return .useCredential(URLCredential(user: "GANNET\\u", password: "p", persistence: .none))
            }
            let response = await manager.response(for: URLRequest(url: url), serializer: .passthrough)
            #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
            #expect(try json(response.data)["user"] as? String == "GANNET\\u")
            let challenges = seen.withLock { $0 }
            #expect(challenges.count == 1)
            #expect(challenges.first?.protectionSpace.authenticationMethod == "NTLM")
            // A first request without credentials, then libcurl's negotiate and authenticate.
            let events = try await server.line(3)
            #expect(events.hasSuffix("200 type3"), "\(server.printedLines)")
            #expect(
                Array(server.printedLines.dropFirst().prefix(3)) == [
                    "GET /ntlm 401 -", "GET /ntlm 401 type1", "GET /ntlm 200 type3",
                ]
            )
        }
    }

    @Test func aWrongNTLMPasswordFailsAfterOneRetry() async throws {
        try await withServer { url, _ in
            let manager = SessionManager(configuration: .ephemeral)
            defer { manager.invalidateAndCancel() }
            manager.credential = URLCredential(user: "GANNET\\u", password: "wrong", persistence: .none)
            let counts = Mutex<[Int]>([])
            manager.setAuthenticationChallengeHandler { _, _, challenge in
                counts.withLock { $0.append(challenge.previousFailureCount) }
                return .performDefaultHandling
            }
            let response = await manager.response(for: URLRequest(url: url), serializer: .passthrough)
            #expect(response.response?.statusCode == 401)
            #expect(counts.withLock { $0 } == [0, 1])
        }
    }
}
