import GannetCore

#if canImport(Glibc)
import Glibc
#endif

/// The number of file descriptors this process has open, from `/proc/self/fd`.
///
/// Compare a count taken before a test with one taken after it to prove nothing leaked. The
/// descriptor used to list the folder is not counted.
public func openFileDescriptorCount() -> Int {
    // Listing opens one descriptor of its own while it reads.
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 1) - 1
}

/// Arms a timer on each of libdispatch's three clocks, so that the descriptors libdispatch opens
/// for them exist before a test counts its baseline.
///
/// libdispatch opens one `timerfd` per clock the first time a timer on that clock is armed and
/// keeps it for the life of the process: `asyncAfter(deadline:)` uses the uptime clock,
/// `asyncAfter(wallDeadline:)` the wall clock, and Swift's `Task.sleep` the continuous
/// (monotonic) clock. A baseline taken before the process's first `Task.sleep` would count the
/// descriptor that sleep opens later, in the test's own polling loop, as a leak.
public func openProcessWideTimerDescriptors() async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(1)) { done.resume() }
    }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        DispatchQueue.global().asyncAfter(wallDeadline: .now() + .microseconds(1)) { done.resume() }
    }
    try? await Task.sleep(for: .microseconds(1))
}

/// This process's resident memory now (`VmRSS` in `/proc/self/status`), in bytes.
public func residentMemoryBytes() -> Int {
    statusField("VmRSS:")
}

/// The most resident memory this process has used so far (`VmHWM` in `/proc/self/status`), in bytes.
public func peakResidentMemoryBytes() -> Int {
    statusField("VmHWM:")
}

/// A `kB` line of `/proc/self/status`, in bytes; `0` if the kernel does not report it.
private func statusField(_ name: String) -> Int {
    for line in readProcFile("/proc/self/status").split(separator: "\n") where line.hasPrefix(name) {
        let kilobytes = line.dropFirst(name.count).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }
    return 0
}

/// Reads a /proc file to its end; Foundation trusts its reported size of 0 and returns nothing.
private func readProcFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = read(fd, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}
