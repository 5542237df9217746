import Foundation
import Glibc
import Testing

/// Reachability in a network namespace of its own: two fresh namespaces joined by a veth pair,
/// the monitor running inside one of them, links and routes changed from outside, and each
/// change seen within a second. Nothing is sent over the link: only its state changes.
///
/// Needs root (network namespaces need CAP_SYS_ADMIN) and iproute2's `ip`; without them the
/// test is skipped, and `swift test` prints the reason on its "skipped" line.
@Suite("Reachability in a network namespace", .serialized)
struct NamespaceReachabilityTests {
    static let monitored = "10.213.0.1"
    static let peer = "10.213.0.2"

    @Test(
        "Carrier loss, link down and route changes show not reachable then reachable within a second",
        .enabled("not root (creating network namespaces needs CAP_SYS_ADMIN)") { geteuid() == 0 },
        .enabled("no iproute2 (`ip` not found; scripts/install-deps.sh installs it)") { IPRoute.executable != nil }
    )
    func linkAndRouteTransitions() async throws {
        let namespaces = try TestNamespaces()
        defer { namespaces.delete() }
        let (m, p) = (namespaces.monitored, namespaces.peer)
        let monitor = try MonitorProcess(
            namespace: m,
            targets: [
                "peer=address:\(Self.peer)", "any=any", "host=domain:\(TestNamespaces.peerHostName)",
            ]
        )
        defer { monitor.stop() }

        // All start reachable: a connected route to the peer, a default route through it, and
        // the peer's name (from the namespace's own /etc/hosts, so resolving sends nothing).
        _ = try await monitor.line("peer", "Reachable via Ethernet", after: 0)
        _ = try await monitor.line("any", "Reachable via Ethernet", after: 0)
        _ = try await monitor.line("host", "Reachable via Ethernet", after: 0)

        // 1. The peer's end goes down: vA keeps its routes but loses carrier (RTM_NEWLINK only).
        try await expectTransition(monitor, labels: ["peer", "any", "host"], to: "Not Reachable", "carrier lost") {
            try IPRoute.run("-n", p, "link", "set", "vB", "down")
        }
        try await expectTransition(
            monitor,
            labels: ["peer", "any", "host"],
            to: "Reachable via Ethernet",
            "carrier back"
        ) {
            try IPRoute.run("-n", p, "link", "set", "vB", "up")
        }

        // 2. vA itself goes down: the kernel deletes its routes, the default route included.
        try await expectTransition(monitor, labels: ["peer", "any", "host"], to: "Not Reachable", "link down") {
            try IPRoute.run("-n", m, "link", "set", "vA", "down")
        }
        try await expectTransition(monitor, labels: ["peer", "host"], to: "Reachable via Ethernet", "link up") {
            try IPRoute.run("-n", m, "link", "set", "vA", "up")
        }
        // 3. The default route did not come back with the link; adding it (a route event, no
        // link event) is what makes "any network" reachable.
        try await expectTransition(monitor, labels: ["any"], to: "Reachable via Ethernet", "default route added") {
            try IPRoute.run("-n", m, "route", "add", "default", "via", Self.peer)
        }
        try await expectTransition(monitor, labels: ["any"], to: "Not Reachable", "default route deleted") {
            try IPRoute.run("-n", m, "route", "del", "default")
        }
        // The peer stays reachable through the connected route all along.
        #expect(monitor.lines.last { $0.label == "peer" }?.status == "Reachable via Ethernet")
        // Nothing left through vA: no route lookup, evaluation or name resolution sent a packet
        // (IPv6 is off on the pair, so the kernel's own neighbour discovery is silent too).
        let sent = try IPRoute.output("netns", "exec", m, "cat", "/sys/class/net/vA/statistics/tx_packets")
        #expect(sent.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "vA sent \(sent) packet(s)")
    }

    /// Runs `change`, then waits for each label's status line printed after it started and
    /// expects it within one second of the start (the wait itself allows far longer, so a miss
    /// shows as a figure rather than a timeout).
    private func expectTransition(
        _ monitor: MonitorProcess,
        labels: [String],
        to status: String,
        _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        change: () throws -> Void
    ) async throws {
        let mark = MonotonicClock.nanoseconds()
        try change()
        for label in labels {
            let line = try await monitor.line(label, status, after: mark)
            let milliseconds = Double(line.time - mark) / 1e6
            print("reachability-netns: \(what): \(label) -> \(status) after \(String(format: "%.1f", milliseconds)) ms")
            #expect(
                milliseconds <= 1000,
                "\(what): \(label) took \(milliseconds) ms to become \(status)",
                sourceLocation: sourceLocation
            )
        }
    }
}

enum MonotonicClock {
    /// CLOCK_MONOTONIC, which the monitor process reads too (namespaces share it).
    static func nanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}

/// iproute2's `ip`.
enum IPRoute {
    static let executable: URL? = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }
        .map(URL.init(fileURLWithPath:))

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `ip arguments` to its end; a non-zero exit throws with its standard error.
    static func run(_ arguments: String...) throws {
        try run(arguments)
    }

    static func run(_ arguments: [String]) throws {
        _ = try output(arguments)
    }

    /// Runs `ip arguments` to its end and returns its standard output.
    static func output(_ arguments: String...) throws -> String {
        try output(arguments)
    }

    static func output(_ arguments: [String]) throws -> String {
        guard let executable else { throw Failure(description: "ip not found") }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        // Small outputs only (a counter, an error line): neither pipe can fill up.
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(
                description:
                    "ip \(arguments.joined(separator: " ")) exited \(process.terminationStatus): \(String(decoding: message, as: UTF8.self))"
            )
        }
        return String(decoding: printed, as: UTF8.self)
    }
}

/// Two namespaces named after this process, joined by vA (10.213.0.1/30, monitored side) and
/// vB (10.213.0.2/30, peer side), with a default route via the peer. Addresses and routes exist
/// only inside them; deleting the namespaces deletes the veth pair. `ip netns exec` mounts
/// /etc/netns/NAME/hosts over /etc/hosts, which names the peer for the host-name target.
struct TestNamespaces {
    static let peerHostName = "peer.gannet-reachability.test"
    let monitored: String
    let peer: String
    private var hostsDirectory: URL { URL(fileURLWithPath: "/etc/netns/\(monitored)") }
    /// Whether /etc/netns had to be created, so that `delete()` leaves /etc as it found it.
    private let createdNetnsDirectory = !FileManager.default.fileExists(atPath: "/etc/netns")

    init() throws {
        let pid = getpid()
        monitored = "gannet-reach-\(pid)-m"
        peer = "gannet-reach-\(pid)-p"
        do {
            try IPRoute.run("netns", "add", monitored)
            try IPRoute.run("netns", "add", peer)
            // Distinct interface indexes, as a container's veth and its host-side peer have: in
            // two fresh namespaces both ends would get index 2, and the kernel's linkwatch then
            // treats their carrier changes as non-urgent and batches them up to a second apart
            // (net/core/link_watch.c), which measures the kernel, not Gannet. See docs/reachability.md.
            try IPRoute.run(
                "-n",
                monitored,
                "link",
                "add",
                "vA",
                "index",
                "10",
                "type",
                "veth",
                "peer",
                "name",
                "vB",
                "index",
                "20",
                "netns",
                peer
            )
            // IPv6 off on both ends before they come up, so the kernel sends no neighbour
            // discovery and the test can check that nothing at all left vA.
            try IPRoute.run("netns", "exec", monitored, "sh", "-c", "echo 1 > /proc/sys/net/ipv6/conf/vA/disable_ipv6")
            try IPRoute.run("netns", "exec", peer, "sh", "-c", "echo 1 > /proc/sys/net/ipv6/conf/vB/disable_ipv6")
            try IPRoute.run("-n", monitored, "addr", "add", "\(NamespaceReachabilityTests.monitored)/30", "dev", "vA")
            try IPRoute.run("-n", peer, "addr", "add", "\(NamespaceReachabilityTests.peer)/30", "dev", "vB")
            try IPRoute.run("-n", monitored, "link", "set", "vA", "up")
            try IPRoute.run("-n", peer, "link", "set", "vB", "up")
            try IPRoute.run("-n", monitored, "route", "add", "default", "via", NamespaceReachabilityTests.peer)
            try FileManager.default.createDirectory(at: hostsDirectory, withIntermediateDirectories: true)
            try Data("127.0.0.1 localhost\n\(NamespaceReachabilityTests.peer) \(Self.peerHostName)\n".utf8)
                .write(to: hostsDirectory.appendingPathComponent("hosts"))
        } catch {
            delete()
            throw error
        }
    }

    func delete() {
        for name in [monitored, peer] { try? IPRoute.run("netns", "del", name) }
        try? FileManager.default.removeItem(at: hostsDirectory)
        if createdNetnsDirectory { try? FileManager.default.removeItem(atPath: "/etc/netns") }
    }
}

/// GannetReachabilityMonitor running inside a namespace (`ip netns exec`), its status lines
/// collected as they come. It exits when its standard input closes.
final class MonitorProcess: @unchecked Sendable {
    // @unchecked Sendable: `received` and `output` are only touched with `condition` locked;
    // `process` and `input` are set in init and only read afterwards.
    struct Line: Sendable {
        var time: UInt64
        var label: String
        var status: String
    }

    private let process = Process()
    private let input = Pipe()
    private let condition = NSCondition()
    private var received: [Line] = []
    private var output = Data()
    private var ended = false

    init(namespace: String, targets: [String]) throws {
        let binary = try Self.binary()
        process.executableURL = IPRoute.executable
        process.arguments = ["netns", "exec", namespace, binary.path] + targets
        process.standardInput = input
        let stdout = Pipe()
        process.standardOutput = stdout
        stdout.fileHandleForReading.readabilityHandler = { [weak self] handle in
            self?.append(handle.availableData)
        }
        try process.run()
    }

    var lines: [Line] {
        condition.lock()
        defer { condition.unlock() }
        return received
    }

    /// The first line for `label` with `status` stamped after `mark`, waiting up to 30 s for it
    /// on a thread of its own (the wait is a condition, never a sleep).
    func line(_ label: String, _ status: String, after mark: UInt64) async throws -> Line {
        let found: Line? = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    returning: self.waitForLine(label, status, after: mark, until: Date().addingTimeInterval(30))
                )
            }
        }
        guard let found else {
            throw IPRoute.Failure(
                description:
                    "the monitor printed no \"\(label) \(status)\" line within 30 s; it printed: \(lines.map { "\($0.label) \($0.status)" })"
            )
        }
        return found
    }

    private func waitForLine(_ label: String, _ status: String, after mark: UInt64, until deadline: Date) -> Line? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let line = received.first(where: { $0.label == label && $0.status == status && $0.time > mark }) {
                return line
            }
            if ended || !condition.wait(until: deadline) { return nil }
        }
    }

    private func append(_ data: Data) {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        if data.isEmpty {
            ended = true
            return
        }
        output.append(data)
        while let newline = output.firstIndex(of: UInt8(ascii: "\n")) {
            let text = String(decoding: output[output.startIndex..<newline], as: UTF8.self)
            output.removeSubrange(output.startIndex...newline)
            // "<nanoseconds> <label> <status words>"; "started <label>" lines carry no status.
            let fields = text.split(separator: " ", maxSplits: 2)
            if fields.count == 3, let time = UInt64(fields[0]) {
                received.append(Line(time: time, label: String(fields[1]), status: String(fields[2])))
            }
        }
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// The monitor is built beside the test bundle (`.build/<triple>/debug/`).
    private static func binary() throws -> URL {
        let name = "GannetReachabilityMonitor"
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [executable.deletingLastPathComponent().appendingPathComponent(name)]
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/", !folder.lastPathComponent.hasSuffix(".xctest") {
            folder = folder.deletingLastPathComponent()
        }
        if folder.path != "/" { candidates.append(folder.deletingLastPathComponent().appendingPathComponent(name)) }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)"))
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw IPRoute.Failure(
                description:
                    "\(name) not found (build with `swift build --build-tests`); looked at \(candidates.map(\.path))"
            )
        }
        return found
    }
}
