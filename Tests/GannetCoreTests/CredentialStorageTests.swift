import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 12: default handling beyond the manager's credential, against httpbin: the task's own
/// credential and handler, the configuration's `URLCredentialStorage` (used, and bypassed with
/// `shouldUseCredentialStorage = false`), and `.permanent` credentials kept in it.
@Suite("Credential storage")
struct CredentialStorageTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// httpbin's Basic space.
    private var httpbinSpace: URLProtectionSpace {
        URLProtectionSpace(
            host: "127.0.0.1",
            port: servers.httpbin.port!,
            protocol: "http",
            realm: "Fake Realm",
            authenticationMethod: NSURLAuthenticationMethodHTTPBasic
        )
    }

    private func manager(storage: URLCredentialStorage?) -> SessionManager {
        var configuration = SessionConfiguration.ephemeral
        configuration.urlCredentialStorage = storage
        return SessionManager(configuration: configuration)
    }

    private func get(_ manager: SessionManager, _ path: String) async -> DataResponse<Data> {
        await manager.response(for: URLRequest(url: servers.httpbin.adding(path)), serializer: .passthrough)
    }

    /// A storage whose default credential for httpbin's space is the right one.
    private func storageAnsweringHttpbin() -> URLCredentialStorage {
        let storage = URLCredentialStorage()
        storage.setDefaultCredential(
            URLCredential(user: "u", password: "p", persistence: .forSession),
            for: httpbinSpace
        )
        return storage
    }

    @Test func theStoragesDefaultCredentialAnswersAfterThe401AndCanBeBypassed() async throws {
        let manager = manager(storage: storageAnsweringHttpbin())
        defer { manager.invalidateAndCancel() }
        let path = "/basic-auth/u/p?run=\(UUID().uuidString)"
        let answered = await get(manager, path)
        #expect(answered.response?.statusCode == 200, "\(String(describing: answered.error))")
        // Not pre-emptive: httpbin saw the request without credentials first.
        let lines = await servers.httpbinAccessLogLines(containing: path, atLeast: 2)
        #expect(lines.map { $0.contains("\" 401 ") } == [true, false], "\(lines)")

        manager.shouldUseCredentialStorage = false
        let bypassed = await get(manager, "/basic-auth/u/p")
        #expect(bypassed.response?.statusCode == 401)
    }

    @Test func theStorageIsTriedAfterTheManagersCredentialFails() async throws {
        let manager = manager(storage: storageAnsweringHttpbin())
        defer { manager.invalidateAndCancel() }
        manager.credential = URLCredential(user: "u", password: "wrong", persistence: .none)
        let counts = Mutex<[Int]>([])
        manager.setAuthenticationChallengeHandler { _, _, challenge in
            counts.withLock { $0.append(challenge.previousFailureCount) }
            return .performDefaultHandling
        }
        let response = await get(manager, "/basic-auth/u/p")
        #expect(response.response?.statusCode == 200)
        #expect(counts.withLock { $0 } == [0, 1])
    }

    @Test func aPermanentCredentialIsKeptInTheStorage() async throws {
        let storage = URLCredentialStorage()
        let manager = manager(storage: storage)
        defer { manager.invalidateAndCancel() }
        manager.setAuthenticationChallengeHandler { _, _, _ in
            .useCredential(URLCredential(user: "u", password: "p", persistence: .permanent))
        }
        let response = await get(manager, "/basic-auth/u/p")
        #expect(response.response?.statusCode == 200)
        let kept = storage.allCredentials.first { $0.key.host == "127.0.0.1" && $0.key.realm == "Fake Realm" }
        #expect(kept?.value["u"]?.password == "p")

        // A second manager on the same storage answers from it without a handler.
        let other = self.manager(storage: storage)
        defer { other.invalidateAndCancel() }
        #expect(await get(other, "/basic-auth/u/p").response?.statusCode == 200)
    }

    @Test func aTasksCredentialAndHandlerComeBeforeTheManagers() async throws {
        let manager = manager(storage: nil)
        defer { manager.invalidateAndCancel() }
        manager.credential = URLCredential(user: "u", password: "wrong", persistence: .none)
        let withCredential = await status(manager, "/basic-auth/u/p") { task in
            task.credential = URLCredential(user: "u", password: "p", persistence: .none)
        }
        #expect(withCredential == 200)

        let managerAsked = Mutex(0)
        manager.setAuthenticationChallengeHandler { _, _, _ in
            managerAsked.withLock { $0 += 1 }
            return .rejectProtectionSpace
        }
        let withHandler = await status(manager, "/basic-auth/u/p") { task in
            task.setAuthenticationChallengeHandler { _, _, _ in
                .useCredential(URLCredential(user: "u", password: "p", persistence: .none))
            }
        }
        #expect(withHandler == 200)
        #expect(managerAsked.withLock { $0 } == 0)
        // Without the task's handler, the manager's decides.
        #expect(await status(manager, "/basic-auth/u/p") { _ in } == 401)
        #expect(managerAsked.withLock { $0 } == 1)
    }

    /// Runs one data task, set up by `configure` before it resumes; returns its status.
    private func status(_ manager: SessionManager, _ path: String, configure: (SessionTask) -> Void) async -> Int? {
        await withCheckedContinuation { continuation in
            let task = manager.dataTask(with: URLRequest(url: servers.httpbin.adding(path)), serializer: .passthrough) {
                continuation.resume(returning: $0.response?.statusCode)
            }
            configure(task)
            task.resume()
        }
    }
}
