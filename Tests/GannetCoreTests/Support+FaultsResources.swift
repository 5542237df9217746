import Foundation
import GannetTestSupport
import Synchronization
import Testing

@testable import GannetCore

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads this process's descriptors, threads and memory from /proc.
enum FaultsProcess {
    /// `Threads:` of /proc/self/status.
    static func threadCount() -> Int {
        statusValue("Threads:")
    }

    /// `VmRSS:` in bytes.
    static func residentBytes() -> Int {
        statusValue("VmRSS:") * 1024
    }

    /// TCP sockets this process holds (any state with an inode) whose peer port is in `ports`,
    /// by inode: the connections made to the test servers.
    static func sockets(toPorts ports: Set<Int>) -> Set<String> {
        var inodes = Set<String>()
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                target.hasPrefix("socket:[")
            else { continue }
            inodes.insert(String(target.dropFirst(8).dropLast()))
        }
        var found = Set<String>()
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            for line in read(table).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > 9, let port = fields[2].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                    ports.contains(port), inodes.contains(String(fields[9]))
                else { continue }
                found.insert(String(fields[9]))
            }
        }
        return found
    }

    /// What each open descriptor points to (`socket:[…]`, `pipe:[…]`, a path), for messages.
    static func descriptorTargets() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")
        }
    }

    private static func statusValue(_ name: String) -> Int {
        for line in read("/proc/self/status").split(separator: "\n") where line.hasPrefix(name) {
            return line.dropFirst(name.count).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 0
        }
        return 0
    }

    /// /proc files report a size of 0, so read to the end with read(2).
    private static func read(_ path: String) -> String {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Samples resident memory on a background thread until stopped; reports the peak growth.
final class FaultsMemorySampler: Sendable {
    private let state = Mutex<(peak: Int, running: Bool)>((0, true))
    let baseline: Int

    init() {
        baseline = FaultsProcess.residentBytes()
        state.withLock { $0.peak = baseline }
        let thread = Thread { [self] in
            while state.withLock({ $0.running }) {
                let now = FaultsProcess.residentBytes()
                state.withLock { $0.peak = max($0.peak, now) }
                usleep(2_000)
            }
        }
        thread.start()
    }

    /// Stops sampling and returns the largest growth over the baseline, in bytes.
    func stop() -> Int {
        let peak = state.withLock { state -> Int in
            state.running = false
            return state.peak
        }
        return max(peak, FaultsProcess.residentBytes()) - baseline
    }
}

/// The descriptors and threads of the process before a test, and the checks that the test's
/// managers left nothing behind.
///
/// Taken after the servers run and after a warm-up exchange (curl's global state, the first
/// connection). Three checks, from the most to the least attributable: every manager the test
/// made through ``makeManager(_:)`` and its engine are deallocated (their engine thread ended,
/// their connection pool and wake-up descriptors closed); no connection to the test servers
/// opened since the baseline is still open; the process's descriptor count is back at the
/// baseline. Other suites of this target run in parallel, so the last check polls: their
/// short-lived descriptors come and go, and only one that stays fails it.
final class FaultsLedger {
    let descriptors: Int
    let threads: Int
    let ports: Set<Int>
    private let socketsBefore: Set<String>
    private let descriptorsBefore: [String]
    private var tracked: [(name: String, object: FaultsWeak)] = []

    private init(ports: Set<Int>) {
        self.ports = ports
        socketsBefore = FaultsProcess.sockets(toPorts: ports)
        descriptorsBefore = FaultsProcess.descriptorTargets()
        descriptors = openFileDescriptorCount()
        threads = FaultsProcess.threadCount()
    }

    /// Warms up against `servers.fault`, lets that manager go, and records the baseline.
    static func begin(_ servers: TestServers, ports extra: [URL] = []) async throws -> FaultsLedger {
        let ports = Set(([servers.fault] + extra).compactMap(\.port))
        let warmUpEngine = FaultsWeak()
        do {
            let manager = SessionManager(configuration: Faults.configuration())
            warmUpEngine.object = manager.engine
            let warmUp = try await Faults.run(manager, URLRequest(url: servers.url(.ok)))
            #expect(warmUp.response.data == Data("ok".utf8), "warm-up failed: \(warmUp.summary)")
            manager.invalidateAndCancel()
        }
        // The warm-up manager closes its connection when its engine thread ends.
        _ = await Faults.poll(seconds: 20) { warmUpEngine.object == nil }
        await openProcessWideTimerDescriptors()
        return FaultsLedger(ports: ports)
    }

    /// A manager whose release (and its engine's) ``expectReturned(within:threadSlack:sourceLocation:)`` checks.
    func makeManager(_ change: (inout SessionConfiguration) -> Void = { _ in }) -> SessionManager {
        let manager = SessionManager(configuration: Faults.configuration(change))
        track(manager)
        return manager
    }

    /// Adds a manager made elsewhere to the checks.
    func track(_ manager: SessionManager) {
        let index = tracked.count / 2
        let weakManager = FaultsWeak()
        weakManager.object = manager
        let weakEngine = FaultsWeak()
        weakEngine.object = manager.engine
        tracked += [("manager #\(index)", weakManager), ("engine of manager #\(index)", weakEngine)]
    }

    /// Polls for at most `seconds` until the test's managers and engines are gone, the
    /// connections it opened are closed and the descriptor count is back; records an issue
    /// for each check that did not pass.
    func expectReturned(
        within seconds: Double = 5,
        threadSlack: Int? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let deadline = Date().addingTimeInterval(seconds)
        func alive() -> [String] { tracked.filter { $0.object.object != nil }.map(\.name) }
        func newSockets() -> Set<String> { FaultsProcess.sockets(toPorts: ports).subtracting(socketsBefore) }
        // The count the checks below judge is the last one the loop saw: counting again after it
        // would catch a descriptor open for an instant (a parallel test case reading /proc).
        var count = openFileDescriptorCount()
        while (!alive().isEmpty || !newSockets().isEmpty || count > descriptors) && Date() < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            count = openFileDescriptorCount()
        }
        let leftAlive = alive()
        #expect(
            leftAlive.isEmpty,
            "still alive \(seconds) s after invalidation and release: \(leftAlive)",
            sourceLocation: sourceLocation
        )
        // When this test's managers are all gone, what is left was opened by a suite running in
        // parallel: still a leak in this process, and named as such.
        let owner =
            leftAlive.isEmpty
            ? " (this test's managers and engines are released: a suite running in parallel holds it)" : ""
        let sockets = newSockets()
        #expect(
            sockets.isEmpty,
            "\(sockets.count) connections to the test servers opened during the test are still open\(owner)",
            sourceLocation: sourceLocation
        )
        if count > descriptors {
            // Counted per target: a second `anon_inode:[timerfd]` is as new as an unseen socket.
            var added = FaultsProcess.descriptorTargets()
            for target in descriptorsBefore {
                if let index = added.firstIndex(of: target) { added.remove(at: index) }
            }
            Issue.record(
                "descriptors: \(count) open, baseline \(descriptors); new since the baseline: \(added.prefix(12))\(owner)",
                sourceLocation: sourceLocation
            )
        }
        if let threadSlack {
            var threads = FaultsProcess.threadCount()
            while threads > self.threads + threadSlack && Date() < deadline {
                try? await Task.sleep(for: .milliseconds(20))
                threads = FaultsProcess.threadCount()
            }
            #expect(
                threads <= self.threads + threadSlack,
                "threads: \(threads), baseline \(self.threads)",
                sourceLocation: sourceLocation
            )
        }
    }
}

/// A weak reference, to prove an object was deallocated.
final class FaultsWeak: @unchecked Sendable {
    // @unchecked: written once before the test hands it on, then only read.
    weak var object: AnyObject?
}
