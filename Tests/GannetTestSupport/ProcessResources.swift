import GannetCore

/// The number of file descriptors this process has open, from `/proc/self/fd`.
///
/// Compare a count taken before a test with one taken after it to prove nothing leaked. The
/// descriptor used to list the folder is not counted.
public func openFileDescriptorCount() -> Int {
    // Listing opens one descriptor of its own while it reads.
    ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 1) - 1
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
    guard let data = FileManager.default.contents(atPath: "/proc/self/status") else { return 0 }
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix(name) {
        let kilobytes = line.dropFirst(name.count).split(separator: " ").first.flatMap { Int($0) } ?? 0
        return kilobytes * 1024
    }
    return 0
}
