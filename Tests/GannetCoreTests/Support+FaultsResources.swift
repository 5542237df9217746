import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing
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

    /// TCP sockets this process holds (any state with an inode) whose peer port is in `ports`:
    /// the connections a test made to its servers, whatever other suites do meanwhile.
    static func socketCount(toPorts ports: Set<Int>) -> Int {
        var inodes = Set<String>()
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                  target.hasPrefix("socket:[") else { continue }
            inodes.insert(String(target.dropFirst(8).dropLast()))
        }
        var count = 0
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            for line in read(table).split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard fields.count > 9, let port = fields[2].split(separator: ":").last.flatMap({ Int($0, radix: 16) }),
                      ports.contains(port), inodes.contains(String(fields[9])) else { continue }
                count += 1
            }
        }
        return count
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

/// The descriptors and threads of the process before a test, and the check that they return.
///
/// Taken after the servers run and after a warm-up exchange (curl's global state, the first
/// connection), so that what remains after the test is what the test leaked. Pooled keep-alive
/// connections belong to a manager: the test invalidates and releases its managers before
/// ``expectReturned(within:sourceLocation:)``.
struct FaultsLedger {
    let descriptors: Int
    let threads: Int
    let ports: Set<Int>

    /// Warms up against `servers.fault`, lets that manager go, and records the baseline.
    static func begin(_ servers: TestServers, ports extra: [URL] = []) async throws -> FaultsLedger {
        let ports = Set(([servers.fault] + extra).compactMap(\.port))
        do {
            let manager = SessionManager(configuration: Faults.configuration())
            let warmUp = try await Faults.run(manager, URLRequest(url: servers.url(.ok)))
            #expect(warmUp.response.data == Data("ok".utf8), "warm-up failed: \(warmUp.summary)")
            manager.invalidateAndCancel()
        }
        // The warm-up manager closes its connection when its engine thread ends.
        _ = await Faults.poll(seconds: 2) { FaultsProcess.socketCount(toPorts: ports) == 0 }
        return FaultsLedger(descriptors: openFileDescriptorCount(), threads: FaultsProcess.threadCount(), ports: ports)
    }

    /// Polls until this test's server connections are closed and the descriptor count is back
    /// at (or below) the baseline, for at most `seconds`; records an issue otherwise.
    func expectReturned(within seconds: Double = 5, threadSlack: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation) async {
        let deadline = Date().addingTimeInterval(seconds)
        var sockets = FaultsProcess.socketCount(toPorts: ports)
        var descriptors = openFileDescriptorCount()
        while (sockets > 0 || descriptors > self.descriptors) && Date() < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            sockets = FaultsProcess.socketCount(toPorts: ports)
            descriptors = openFileDescriptorCount()
        }
        #expect(sockets == 0, "\(sockets) connections to the test servers still open after \(seconds) s", sourceLocation: sourceLocation)
        #expect(descriptors <= self.descriptors, "descriptors: \(descriptors) open, baseline \(self.descriptors)", sourceLocation: sourceLocation)
        if let threadSlack {
            var threads = FaultsProcess.threadCount()
            while threads > self.threads + threadSlack && Date() < deadline {
                try? await Task.sleep(for: .milliseconds(20))
                threads = FaultsProcess.threadCount()
            }
            #expect(threads <= self.threads + threadSlack, "threads: \(threads), baseline \(self.threads)", sourceLocation: sourceLocation)
        }
    }
}
