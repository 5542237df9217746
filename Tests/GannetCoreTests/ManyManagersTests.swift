import Foundation
import GannetTestSupport
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 26: 500 live managers, each having made a request, run on the pool's threads
/// (EnginePool) in bounded memory. It reads the whole process's threads and resident memory, so
/// scripts/test.sh runs it in the one-at-a-time pass (docs/performance.md, "Many managers").
@Suite("Many managers on the engine pool")
struct ManyManagersTests {
    static let managers = 500

    /// The names (`comm`) of this process's threads.
    static func threadNames() -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    static func engineThreads() -> Int { threadNames().filter { $0 == "gannet.engine" }.count }

    @Test func fiveHundredManagersShareCoreCountThreadsInUnder60MB() async throws {
        let servers = try TestServers.shared()
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // Engine threads of managers other tests in this process still hold (the heavy pass
        // runs several suites in one process): this test counts only its own.
        let othersThreads = Self.engineThreads()
        // Warm-up: curl's and OpenSSL's global state, the allocator's first growth, one loop.
        do {
            let warmUp = testManager(servers)
            _ = await perform(warmUp, URLRequest(url: servers.nginx.adding("/small")))
            warmUp.invalidateAndCancel()
        }
        #expect(
            await eventually(within: 30) { Self.engineThreads() == othersThreads },
            "the warm-up's engine thread did not end"
        )
        let threadsBefore = Self.threadNames().count
        let residentBefore = FaultsProcess.residentBytes()

        var managers: [SessionManager] = []
        for index in 0..<Self.managers {
            let manager = testManager(servers)
            let response = await perform(manager, URLRequest(url: servers.nginx.adding("/small?manager=\(index)")))
            #expect(response.error == nil && response.data == Data("ok".utf8), "\(String(describing: response.error))")
            managers.append(manager)
        }
        let threadsAfter = Self.threadNames().count
        let engineThreads = Self.engineThreads()
        let growth = FaultsProcess.residentBytes() - residentBefore
        print(
            "many managers: \(Self.managers) managers, \(engineThreads) engine threads (pool size \(EnginePool.size)), "
                + "threads \(threadsBefore) → \(threadsAfter), RSS +\(growth / 1024) KiB"
        )
        #expect(engineThreads <= EnginePool.size, "\(engineThreads) engine threads for a pool of \(EnginePool.size)")
        #expect(threadsAfter - threadsBefore <= cores + 4, "threads \(threadsBefore) → \(threadsAfter)")
        #expect(growth < 60 << 20, "resident memory grew by \(growth >> 20) MiB")
        // Every manager still works, on its own connection (each kept one alive).
        let last = await perform(managers[0], URLRequest(url: servers.nginx.adding("/small")))
        #expect(last.metrics?.reusedConnection == true)

        for manager in managers { manager.invalidateAndCancel() }
        managers.removeAll()
        #expect(
            await eventually(within: 60) { Self.engineThreads() == othersThreads },
            "engine threads outlived their managers"
        )
    }
}
