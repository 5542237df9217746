import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 24: a credential goes only in the schemes and to the origin it was given for
/// (docs/auth-cookies-cache.md, "Authentication"). What reached the server is read from the
/// fault server's `/auth-record/KEY` log (every `Authorization` header it received) or from
/// httpbin's verdict, never from what the client says it sent.
@Suite("Credentials bound to their scheme and origin")
struct AuthenticationBindingTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    private static let credential = URLCredential(user: "u", password: "p", persistence: .none)
    /// `URLCredentialStorage` keeps no `.none` credential.
    private static let storedCredential = URLCredential(user: "u", password: "p", persistence: .forSession)
    /// `u:p` as Basic sends it.
    private static let basicUP = "Basic dTpw"

    private func get(_ manager: SessionManager, _ url: URL) async -> DataResponse<Data> {
        await manager.response(for: URLRequest(url: url), serializer: .passthrough)
    }

    /// Runs one data task, set up by `configure` before it resumes.
    private func run(
        _ manager: SessionManager,
        _ request: URLRequest,
        configure: (SessionTask) -> Void = { _ in }
    ) async -> DataResponse<Data> {
        await withCheckedContinuation { continuation in
            let task = manager.dataTask(with: request, serializer: .passthrough) { continuation.resume(returning: $0) }
            configure(task)
            task.resume()
        }
    }

    /// httpbin's `/redirect-to`, a `302` to `target` on another origin.
    private func redirect(to target: URL) -> URL {
        var components = URLComponents(url: servers.httpbin.adding("/redirect-to"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "url", value: target.absoluteString)]
        return components.url!
    }

    private static let digestChallenge = "Digest realm=\"fault\", nonce=\"0123456789abcdef\", qop=\"auth\""

    // MARK: (a) no downgrade

    /// A credential for Digest (or NTLM) meets a server that offers only Basic: nothing is sent,
    /// the `401` is the response.
    @Test(arguments: [AuthenticationSchemes.digest, .ntlm, [.digest, .ntlm]])
    func aCredentialForAStrongerSchemeIsNeverSentAsBasic(schemes: AuthenticationSchemes) async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credential = Self.credential
        manager.credentialSchemes = schemes
        let key = UUID().uuidString
        let response = await get(manager, servers.url(.authRecord(key)))
        #expect(response.response?.statusCode == 401, "\(String(describing: response.error))")
        let received = try servers.authorizationsReceived(key)
        #expect(received == [""], "the server received \(received)")
    }

    /// The task's own credential obeys the manager's schemes too.
    @Test func aTasksCredentialForDigestIsNeverSentAsBasic() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credentialSchemes = .digest
        let key = UUID().uuidString
        let response = await run(manager, URLRequest(url: servers.url(.authRecord(key)))) { task in
            task.credential = Self.credential
        }
        #expect(response.response?.statusCode == 401, "\(String(describing: response.error))")
        let received = try servers.authorizationsReceived(key)
        #expect(received == [""], "the server received \(received)")
    }

    /// A server offering Basic and Digest gets Digest from an unscoped credential: the
    /// strongest scheme offered, as curl's `CURLAUTH_ANY` chooses; Basic is never tried.
    @Test func anUnscopedCredentialAnswersTheStrongestSchemeOffered() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credential = Self.credential
        let key = UUID().uuidString
        let both = "Basic realm=\"fault\", " + Self.digestChallenge
        let response = await get(manager, servers.url(.authRecord(key, challenge: both)))
        #expect(response.response?.statusCode == 401, "\(String(describing: response.error))")
        let received = try servers.authorizationsReceived(key)
        #expect(!received.contains { $0.hasPrefix("Basic") }, "the server received \(received)")
        #expect(received.contains { $0.hasPrefix("Digest username=\"u\"") }, "the server received \(received)")
    }

    /// The same origin still gets an unscoped credential in Basic, and a Digest one in Digest.
    @Test func theGivenSchemeAndOriginAreStillAnswered() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credential = Self.credential
        let basic = await get(manager, servers.httpbin.adding("/basic-auth/u/p"))
        #expect(basic.response?.statusCode == 200, "\(String(describing: basic.error))")
        manager.credentialSchemes = .digest
        let digest = await get(manager, servers.httpbin.adding("/digest-auth/auth/u/p"))
        #expect(digest.response?.statusCode == 200, "\(String(describing: digest.error))")
        // A redirect within the origin keeps the credential.
        let hop = await get(manager, servers.httpbin.adding("/redirect-to?url=/digest-auth/auth/u/p"))
        #expect(hop.response?.statusCode == 200, "\(String(describing: hop.error))")
        #expect(hop.metrics?.redirectCount == 1)
    }

    // MARK: (b) no other origin after a redirect

    /// httpbin redirects to the fault server, which asks for Basic, then Digest: neither the
    /// manager's nor the task's credential goes there.
    @Test(arguments: ["Basic realm=\"fault\"", digestChallenge])
    func noCredentialFollowsARedirectToAnotherOrigin(challenge: String) async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credential = Self.credential
        let key = UUID().uuidString
        let managers = await get(manager, redirect(to: servers.url(.authRecord(key, challenge: challenge))))
        #expect(managers.response?.statusCode == 401, "\(String(describing: managers.error))")
        #expect(managers.metrics?.redirectCount == 1)
        let received = try servers.authorizationsReceived(key)
        #expect(received == [""], "the server received \(received)")

        manager.credential = nil
        let taskKey = UUID().uuidString
        let target = redirect(to: servers.url(.authRecord(taskKey, challenge: challenge)))
        let tasks = await run(manager, URLRequest(url: target)) { $0.credential = Self.credential }
        #expect(tasks.response?.statusCode == 401, "\(String(describing: tasks.error))")
        let receivedByTask = try servers.authorizationsReceived(taskKey)
        #expect(receivedByTask == [""], "the server received \(receivedByTask)")
    }

    /// Another port is another origin (curl CVE-2022-27776): httpbin's second port, asking
    /// for the very credential, gets nothing.
    @Test func anotherPortOfTheSameHostIsAnotherOrigin() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credential = Self.credential
        let response = await get(manager, redirect(to: servers.httpbinAlt.adding("/basic-auth/u/p")))
        #expect(response.response?.statusCode == 401, "\(String(describing: response.error))")
        #expect(response.response?.url?.port == servers.httpbinAlt.port)
    }

    /// The preemptive Basic header (`setAuthorizationHeader`) goes to its origin only; the
    /// other origin's `401` is not answered either.
    @Test func thePreemptiveHeaderStaysWithItsOrigin() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        let key = UUID().uuidString
        var request = URLRequest(url: redirect(to: servers.url(.authRecord(key))))
        request.setValue(Self.basicUP, forHTTPHeaderField: "Authorization")
        let response = await run(manager, request) { $0.credential = Self.credential }
        #expect(response.response?.statusCode == 401, "\(String(describing: response.error))")
        let received = try servers.authorizationsReceived(key)
        #expect(received == [""], "the server received \(received)")
    }

    // MARK: (c) the credential storage

    /// A stored credential answers its own protection space only: not the same origin's Basic
    /// when it was stored for Digest, not another origin after a redirect.
    @Test func aStoredCredentialAnswersItsOwnSpaceOnly() async throws {
        let storage = URLCredentialStorage()
        let fault = servers.fault
        storage.setDefaultCredential(
            Self.storedCredential,
            for: URLProtectionSpace(
                host: "127.0.0.1",
                port: fault.port!,
                protocol: "http",
                realm: "fault",
                authenticationMethod: NSURLAuthenticationMethodHTTPDigest
            )
        )
        storage.setDefaultCredential(
            Self.storedCredential,
            for: URLProtectionSpace(
                host: "127.0.0.1",
                port: servers.httpbin.port!,
                protocol: "http",
                realm: "Fake Realm",
                authenticationMethod: NSURLAuthenticationMethodHTTPBasic
            )
        )
        var configuration = SessionConfiguration.ephemeral
        configuration.urlCredentialStorage = storage
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidateAndCancel() }
        let key = UUID().uuidString
        let downgraded = await get(manager, servers.url(.authRecord(key)))
        #expect(downgraded.response?.statusCode == 401)
        let received = try servers.authorizationsReceived(key)
        #expect(received == [""], "the server received \(received)")
        // It is there, for Digest: the same origin's Digest challenge gets it.
        let digestKey = UUID().uuidString
        _ = await get(manager, servers.url(.authRecord(digestKey, challenge: Self.digestChallenge)))
        let digest = try servers.authorizationsReceived(digestKey)
        #expect(digest.contains { $0.hasPrefix("Digest username=\"u\"") }, "the server received \(digest)")
        // httpbin's own space is answered; its second port is another space.
        #expect(await get(manager, servers.httpbin.adding("/basic-auth/u/p")).response?.statusCode == 200)
        let elsewhere = await get(manager, redirect(to: servers.httpbinAlt.adding("/basic-auth/u/p")))
        #expect(elsewhere.response?.statusCode == 401)
    }

    // MARK: (d) the caller's handler decides

    /// A handler asked about another origin's challenge may answer it: that is the caller's
    /// decision for that challenge, and it is honoured, in the scheme the space names.
    @Test func aHandlerMayAnswerAnotherOriginsChallenge() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        manager.credential = Self.credential
        let fault = servers.fault
        let asked = Mutex<[ProtectionSpace]>([])
        manager.setAuthenticationChallengeHandler { _, _, challenge in
            asked.withLock { $0.append(challenge.protectionSpace) }
            return challenge.protectionSpace.port == fault.port && challenge.previousFailureCount == 0
                ? .useCredential(Self.credential) : .performDefaultHandling
        }
        let key = UUID().uuidString
        let response = await get(manager, redirect(to: servers.url(.authRecord(key))))
        #expect(response.response?.statusCode == 401)
        let received = try servers.authorizationsReceived(key)
        #expect(received == ["", Self.basicUP], "the server received \(received)")
        #expect(asked.withLock { $0.map(\.port) } == [fault.port!, fault.port!])

        // httpbin's second port, answered by the handler, accepts it.
        let alt = servers.httpbinAlt
        manager.setAuthenticationChallengeHandler { _, _, challenge in
            challenge.protectionSpace.port == alt.port ? .useCredential(Self.credential) : .rejectProtectionSpace
        }
        let answered = await get(manager, redirect(to: alt.adding("/basic-auth/u/p")))
        #expect(answered.response?.statusCode == 200, "\(String(describing: answered.error))")
    }
}
