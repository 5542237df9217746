// Watches reachability targets and prints each status change, for the namespace test
// (Tests/GannetReachabilityTests/NamespaceReachabilityTests.swift), which runs this program
// inside a network namespace of its own with `ip netns exec`.
//
//   GannetReachabilityMonitor LABEL=any LABEL=address:10.0.0.1 LABEL=domain:localhost
//
// Prints `<CLOCK_MONOTONIC nanoseconds> <LABEL> <status>` per change, flushed at once, and
// `started <LABEL>` once monitoring runs. Exits when standard input closes, so it never
// outlives the test that started it.
import Foundation
import GannetReachability
import Glibc

func monotonicNanoseconds() -> UInt64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
}

func emit(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
}

func fail(_ reason: String) -> Never {
    FileHandle.standardError.write(Data("GannetReachabilityMonitor: \(reason)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments.dropFirst()
guard !arguments.isEmpty else { fail("usage: GannetReachabilityMonitor LABEL=any|address:IP|domain:NAME ...") }

var managers: [NetworkReachabilityManager] = []
for argument in arguments {
    guard let equals = argument.firstIndex(of: "=") else { fail("expected LABEL=TARGET, got \(argument)") }
    let label = String(argument[..<equals])
    let target = String(argument[argument.index(after: equals)...])
    let manager: NetworkReachabilityManager
    do {
        if target == "any" {
            manager = NetworkReachabilityManager()
        } else if target.hasPrefix("address:") {
            manager = try NetworkReachabilityManager(address: String(target.dropFirst("address:".count)))
        } else if target.hasPrefix("domain:") {
            manager = try NetworkReachabilityManager(domain: String(target.dropFirst("domain:".count)))
        } else {
            fail("unknown target \(target)")
        }
        manager.setReachabilityStatusChangeBlock { status in
            emit("\(monotonicNanoseconds()) \(label) \(status)")
        }
        try manager.startMonitoring()
    } catch {
        fail("\(label): \(error)")
    }
    managers.append(manager)
    emit("started \(label)")
}

// Block until the test closes our standard input, then stop cleanly.
var scratch = [UInt8](repeating: 0, count: 256)
while read(STDIN_FILENO, &scratch, scratch.count) > 0 {}
for manager in managers { manager.stopMonitoring() }
exit(0)
