import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 12: HTTP authentication challenges against httpbin and the authenticating proxy. The
/// handler is asked after the `401` (never before), libcurl computes Basic and Digest, a
/// refused credential counts up `previousFailureCount` and never loops.
@Suite("Authentication challenges")
struct AuthenticationChallengeTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    final class Seen: Sendable {
        private let challenges = Mutex<[AuthenticationChallenge]>([])
        func add(_ challenge: AuthenticationChallenge) { challenges.withLock { $0.append(challenge) } }
        var all: [AuthenticationChallenge] { challenges.withLock { $0 } }
    }

    private func get(_ manager: SessionManager, _ url: URL) async -> DataResponse<Data> {
        await manager.response(for: URLRequest(url: url), serializer: .passthrough)
    }

    /// An ephemeral manager whose handler notes each challenge in `seen` and gives `answer`.
    private func manager(answering answer: AuthenticationDisposition) -> (SessionManager, Seen) {
        let manager = SessionManager(configuration: .ephemeral)
        let seen = Seen()
        manager.setAuthenticationChallengeHandler { _, _, challenge in
            seen.add(challenge)
            return answer
        }
        return (manager, seen)
    }

    @Test func basicIsAnsweredThroughTheHandlerAfterThe401() async throws {
        let (manager, seen) = manager(
            answering: .useCredential(URLCredential(user: "u", password: "p", persistence: .none))
        )
        defer { manager.invalidateAndCancel() }
        let response = await get(manager, servers.httpbin.adding("/basic-auth/u/p"))
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        #expect(try json(response.data)["authenticated"] as? Bool == true)
        // Asked once, for a 401 that came first: the first request carried no credential.
        let challenge = try #require(seen.all.first)
        #expect(seen.all.count == 1)
        #expect(challenge.previousFailureCount == 0)
        #expect(challenge.failureResponse?.statusCode == 401)
        #expect(challenge.protectionSpace.authenticationMethod == "Basic")
        #expect(challenge.protectionSpace.realm == "Fake Realm")
        #expect(challenge.protectionSpace.host == "127.0.0.1" && !challenge.protectionSpace.isProxy)
        #expect(response.metrics?.redirectCount == 0)
    }

    /// The credential a challenge was answered with is set on the easy handle for that hop
    /// only: the next request, on the handle the manager kept, sends none.
    @Test func theAnsweredCredentialIsNotSentWithTheNextRequest() async throws {
        let (manager, seen) = manager(
            answering: .useCredential(URLCredential(user: "u", password: "p", persistence: .none))
        )
        defer { manager.invalidateAndCancel() }
        let answered = await get(manager, servers.httpbin.adding("/basic-auth/u/p"))
        #expect(answered.response?.statusCode == 200, "\(String(describing: answered.error))")
        for _ in 0..<3 {
            let next = await get(manager, servers.httpbin.adding("/headers"))
            #expect(next.response?.statusCode == 200, "\(String(describing: next.error))")
            let headers = try #require(try json(next.data)["headers"] as? [String: Any])
            #expect(!headers.keys.contains { $0.lowercased() == "authorization" }, "\(headers)")
        }
        #expect(seen.all.count == 1)
    }

    /// libcurl computes Digest (`auth` and `auth-int`) from the manager's credential.
    @Test(arguments: ["auth", "auth-int"])
    func digestIsAnsweredWithTheManagersCredential(qop: String) async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credential = URLCredential(user: "u", password: "p", persistence: .none)
        let response = await get(manager, servers.httpbin.adding("/digest-auth/\(qop)/u/p"))
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        #expect(try json(response.data)["authenticated"] as? Bool == true)
    }

    /// A wrong password: retried once, refused again, and the second challenge has
    /// `previousFailureCount` 1; default handling then gives the 401 to the caller.
    @Test(arguments: ["/basic-auth/u/p", "/digest-auth/auth/u/p"])
    func aWrongPasswordFailsAfterExactlyOneRetry(path: String) async throws {
        let (manager, seen) = manager(answering: .performDefaultHandling)
        defer { manager.invalidateAndCancel() }
        manager.credential = URLCredential(user: "u", password: "wrong", persistence: .none)
        let response = await get(manager, servers.httpbin.adding(path))
        #expect(response.response?.statusCode == 401)
        #expect(seen.all.map(\.previousFailureCount) == [0, 1])
    }

    /// A handler that keeps answering with a refused credential is stopped.
    @Test func aHandlerThatInsistsIsStoppedAfterThreeRefusals() async throws {
        let (manager, seen) = manager(
            answering: .useCredential(URLCredential(user: "u", password: "wrong", persistence: .none))
        )
        defer { manager.invalidateAndCancel() }
        let response = await get(manager, servers.httpbin.adding("/basic-auth/u/p"))
        #expect(response.response?.statusCode == 401)
        #expect(seen.all.map(\.previousFailureCount) == [0, 1, 2, 3])
    }

    /// `/hidden-basic-auth` answers 404 without a challenge: nobody is asked.
    @Test func aResponseWithoutAChallengeIsNotOffered() async throws {
        let (manager, seen) = manager(answering: .performDefaultHandling)
        defer { manager.invalidateAndCancel() }
        let response = await get(manager, servers.httpbin.adding("/hidden-basic-auth/u/p"))
        #expect(response.response?.statusCode == 404)
        #expect(seen.all.isEmpty)
    }

    @Test func cancellingAndFailingEndTheTask() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.setAuthenticationChallengeHandler { _, _, _ in .cancelAuthenticationChallenge }
        let cancelled = await get(manager, servers.httpbin.adding("/basic-auth/u/p"))
        #expect((cancelled.error as? URLError)?.code == .userCancelledAuthentication)
        struct Refused: Error {}
        manager.setAuthenticationChallengeHandler { _, _, _ in .fail(Refused()) }
        let failed = await get(manager, servers.httpbin.adding("/basic-auth/u/p"))
        #expect(failed.error is Refused, "\(String(describing: failed.error))")
        manager.setAuthenticationChallengeHandler { _, _, _ in .rejectProtectionSpace }
        let rejected = await get(manager, servers.httpbin.adding("/basic-auth/u/p"))
        #expect(rejected.response?.statusCode == 401)
    }

    /// A `.forSession` credential the handler gave answers the next task's challenge by default.
    @Test func aSessionCredentialIsRememberedForTheSpace() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        let asked = Seen()
        manager.setAuthenticationChallengeHandler { _, _, challenge in
            asked.add(challenge)
            return asked.all.count == 1
                ? .useCredential(URLCredential(user: "u", password: "p", persistence: .forSession))
                : .performDefaultHandling
        }
        #expect(await get(manager, servers.httpbin.adding("/basic-auth/u/p")).response?.statusCode == 200)
        #expect(await get(manager, servers.httpbin.adding("/basic-auth/u/p")).response?.statusCode == 200)
        #expect(asked.all.count == 2)
    }

    /// The manager's credential is the origin's: a proxy's `407` never gets it, in any scheme,
    /// even when it happens to be what the proxy wants (it would read the server's password).
    /// The `407` is the response, sent once, and no `Proxy-Authorization` reached the proxy.
    @Test func theManagersCredentialNeverAnswersAProxy() async throws {
        var configuration = SessionConfiguration.ephemeral
        configuration.proxy = .url(servers.authenticatingProxy)
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidateAndCancel() }
        let credentials = servers.proxyCredentials
        manager.credential = URLCredential(user: credentials.user, password: credentials.password, persistence: .none)
        let marker = "/get?leak-probe=\(UUID().uuidString)"
        let response = await get(manager, servers.httpbin.adding(marker))
        #expect(response.response?.statusCode == 407, "\(String(describing: response.error))")
        let log = try String(contentsOfFile: servers.proxyLog, encoding: .utf8)
        let heads = log.components(separatedBy: "--- port").filter { $0.contains(marker) }
        #expect(heads.count == 1, "\(heads)")
        #expect(!heads.contains { $0.lowercased().contains("proxy-authorization") }, "\(heads)")
    }

    /// The authenticating proxy's 407 reaches the handler as a proxy's challenge.
    @Test func aProxysChallengeIsAnsweredToo() async throws {
        var configuration = SessionConfiguration.ephemeral
        configuration.proxy = .url(servers.authenticatingProxy)
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidateAndCancel() }
        let seen = Seen()
        let credentials = servers.proxyCredentials
        manager.setAuthenticationChallengeHandler { _, _, challenge in
            seen.add(challenge)
            return .useCredential(
                URLCredential(user: credentials.user, password: credentials.password, persistence: .none)
            )
        }
        let response = await get(manager, servers.httpbin.adding("/get"))
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        let challenge = try #require(seen.all.first)
        #expect(challenge.protectionSpace.isProxy)
        #expect(challenge.protectionSpace.port == servers.authenticatingProxy.port)
        #expect(challenge.failureResponse?.statusCode == 407)
    }
}
