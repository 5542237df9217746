import Foundation
import GannetCore
import GannetServiceLifecycle
import GannetTestSupport
import Logging
import ServiceLifecycle
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A service that notes it runs, then waits for graceful shutdown. A group registers its signal
/// handlers before it starts its services, so once this runs a signal is safe to send.
final class Started: Service {
    let running = Atomic<Bool>(false)
    func run() async throws {
        running.store(true, ordering: .sequentiallyConsistent)
        try? await gracefulShutdown()
    }
}

/// A task's outcome, delivered once.
final class Outcome: Sendable {
    let response = Mutex<DataResponse<Data>?>(nil)
    var value: DataResponse<Data>? { response.withLock { $0 } }
}

func start(_ request: URLRequest, on manager: SessionManager) -> Outcome {
    let outcome = Outcome()
    manager.dataTask(with: request, serializer: .passthrough) { response in
        outcome.response.withLock { $0 = response }
    }.resume()
    return outcome
}

/// The fault server's held body: `prefix` bytes at once, the rest when the test releases it.
func heldRequest(_ servers: TestServers) throws -> (request: URLRequest, key: String, file: URL, data: Data) {
    let held = try servers.heldBody(bytes: 4096, prefix: 1024)
    return (URLRequest(url: servers.url(held.route)), held.key, held.file, held.data)
}

/// The ``GannetError`` code of `error`, or of the one a `URLError` carries as its underlying
/// error (how a refused or cancelled task reports the invalidation).
func gannetCode(_ error: (any Error)?) -> GannetError.Code? {
    if let error = error as? GannetError { return error.code }
    guard let urlError = error as? URLError else { return nil }
    return (urlError.errorUserInfo[NSUnderlyingErrorKey] as? GannetError)?.code
}

// Serialized: the SIGTERM goes to the whole test process, which one group at a time traps.
@Suite("SessionManagerService", .serialized)
struct SessionManagerServiceTests {
    @Test(
        "on SIGTERM the task in flight completes, a new task is refused, then the managers are invalidated and the group ends"
    )
    func sigtermDrainsInFlightTasks() async throws {
        let servers = try TestServers.shared()
        let manager = SessionManager()
        let started = Started()
        let group = ServiceGroup(
            services: [started, SessionManagerService(managers: [manager], gracePeriod: .seconds(120))],
            gracefulShutdownSignals: [.sigterm],
            logger: Logger(label: "test")
        )
        let run = Task { try await group.run() }
        #expect(await eventually { started.running.load(ordering: .sequentiallyConsistent) })

        let held = try heldRequest(servers)
        defer { try? FileManager.default.removeItem(at: held.file) }
        let inFlight = start(held.request, on: manager)
        try await servers.waitForHeldFile(key: held.key, "the held request") { $0.held == 1 }

        kill(getpid(), SIGTERM)
        #expect(await eventually { manager.isInvalidated })
        // The manager takes no new task ...
        let refused = await manager.response(
            for: URLRequest(url: servers.httpbin.appendingPathComponent("get")),
            serializer: .passthrough
        )
        #expect(gannetCode(refused.error) == .sessionInvalidated)
        // ... while the one in flight goes on: still held, not cancelled.
        #expect(inFlight.value == nil)
        #expect(manager.tasks.count == 1)

        try await servers.releaseHeldFile(key: held.key)
        #expect(await eventually { inFlight.value != nil })
        #expect(inFlight.value?.statusCode == 200)
        #expect(inFlight.value?.value == held.data)
        try await run.value
        #expect(manager.tasks.isEmpty)
    }

    @Test("a task still in flight when the grace period ends is cancelled with sessionInvalidated")
    func gracePeriodEndsInFlightTasks() async throws {
        let servers = try TestServers.shared()
        let manager = SessionManager()
        let group = ServiceGroup(
            services: [SessionManagerService(managers: [manager], gracePeriod: .milliseconds(200))],
            logger: Logger(label: "test")
        )
        let run = Task { try await group.run() }

        let held = try heldRequest(servers)
        defer { try? FileManager.default.removeItem(at: held.file) }
        let inFlight = start(held.request, on: manager)
        try await servers.waitForHeldFile(key: held.key, "the held request") { $0.held == 1 }

        await group.triggerGracefulShutdown()
        try await run.value
        #expect(await eventually { inFlight.value != nil })
        #expect(gannetCode(inFlight.value?.error) == .sessionInvalidated)
        try await servers.releaseHeldFile(key: held.key)
    }

    @Test("cancelling the group invalidates and cancels at once")
    func cancellationCancelsTasks() async throws {
        let servers = try TestServers.shared()
        let manager = SessionManager()
        let group = ServiceGroup(
            services: [SessionManagerService(managers: [manager], gracePeriod: .seconds(120))],
            logger: Logger(label: "test")
        )
        let run = Task { try await group.run() }

        let held = try heldRequest(servers)
        defer { try? FileManager.default.removeItem(at: held.file) }
        let inFlight = start(held.request, on: manager)
        try await servers.waitForHeldFile(key: held.key, "the held request") { $0.held == 1 }

        run.cancel()
        _ = try? await run.value
        #expect(await eventually { inFlight.value != nil })
        #expect(gannetCode(inFlight.value?.error) == .sessionInvalidated)
        #expect(manager.isInvalidated)
        try await servers.releaseHeldFile(key: held.key)
    }
}
