import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Digest credential goes out only as asked: once per retry, after libcurl's own probe, and
/// computed from the challenge of the server being answered (docs/engine.md, "Authentication").
/// libcurl keeps a Digest challenge's nonce in the easy handle, so a handle that heard one must
/// not carry it into another hop or another transfer. What reached the server is read from the
/// fault server's `/auth-record/KEY` log (Tests/Servers/auth_routes.py), never from the client.
@Suite("Digest probes and refusals")
struct DigestProbeTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    private static let credential = URLCredential(user: "u", password: "wrong", persistence: .none)

    private static func challenge(nonce: String) -> String {
        "Digest realm=\"fault\", nonce=\"\(nonce)\", qop=\"auth\""
    }

    private func get(_ manager: SessionManager, _ url: URL) async -> DataResponse<Data> {
        await manager.response(for: URLRequest(url: url), serializer: .passthrough)
    }

    /// The server refuses the credential: it receives it once, after a probe without one, and
    /// the task ends with the server's `401`, not with a probe's answer taken for the response.
    @Test func aRefusedDigestCredentialIsSentOnceAndItsRefusalIsSeen() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credential = Self.credential
        manager.credentialSchemes = .digest
        let key = UUID().uuidString
        let response = await get(manager, servers.url(.authRecord(key, challenge: Self.challenge(nonce: "n1"))))
        #expect(response.response?.statusCode == 401, "\(String(describing: response.error))")
        let received = try servers.authorizationsReceived(key)
        let digests = received.filter { $0.hasPrefix("Digest ") }
        #expect(digests.count == 1, "the server received \(received)")
        // The first request carries nothing; the credential follows a probe of its own hop.
        #expect(received.first == "", "the server received \(received)")
        #expect(received.dropLast().allSatisfy { $0.isEmpty }, "the server received \(received)")
        #expect(digests.first?.contains("nc=00000001") == true, "the server received \(received)")
    }

    /// A transfer that heard a Digest challenge and sent nothing leaves no state to the next:
    /// the next transfer's credential is computed from its own server's nonce, after its own
    /// probe, and sent once.
    @Test func aTransferAfterADigestChallengeStartsWithNoDigestState() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credentialSchemes = .digest
        let first = UUID().uuidString
        let refused = await get(manager, servers.url(.authRecord(first, challenge: Self.challenge(nonce: "first"))))
        #expect(refused.response?.statusCode == 401, "\(String(describing: refused.error))")
        let firstReceived = try servers.authorizationsReceived(first)
        #expect(firstReceived == [""], "the server received \(firstReceived)")

        manager.credential = Self.credential
        let second = UUID().uuidString
        let response = await get(manager, servers.url(.authRecord(second, challenge: Self.challenge(nonce: "second"))))
        #expect(response.response?.statusCode == 401, "\(String(describing: response.error))")
        let received = try servers.authorizationsReceived(second)
        let digests = received.filter { $0.hasPrefix("Digest ") }
        #expect(digests.count == 1, "the server received \(received)")
        #expect(received.dropLast().allSatisfy { $0.isEmpty }, "the server received \(received)")
        #expect(digests.allSatisfy { $0.contains("nonce=\"second\"") }, "the server received \(received)")
    }

    /// Many Digest exchanges on one manager, refused and accepted in turn: each refused one
    /// sends its credential once, and each accepted one still succeeds (httpbin checks the
    /// answer), so no handle answers with another exchange's state.
    @Test func digestExchangesInTurnEachStartClean() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credentialSchemes = .digest
        for round in 0..<3 {
            manager.credential = URLCredential(user: "u", password: "p", persistence: .none)
            let accepted = await get(manager, servers.httpbin.adding("/digest-auth/auth/u/p"))
            #expect(accepted.response?.statusCode == 200, "round \(round): \(String(describing: accepted.error))")
            manager.credential = Self.credential
            let key = UUID().uuidString
            let refused = await get(
                manager,
                servers.url(.authRecord(key, challenge: Self.challenge(nonce: "r\(round)")))
            )
            #expect(refused.response?.statusCode == 401, "round \(round): \(String(describing: refused.error))")
            let received = try servers.authorizationsReceived(key)
            #expect(received.filter { $0.hasPrefix("Digest ") }.count == 1, "round \(round): \(received)")
        }
    }
}
