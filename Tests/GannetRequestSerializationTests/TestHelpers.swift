import Foundation
import Glibc

/// A file in its own temporary folder, removed with the folder when the value is released.
final class TemporaryFile {
    let url: URL
    private let folder: URL

    init(bytes: Data, name: String = "file.bin") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-reqser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder.appendingPathComponent(name)
        try bytes.write(to: url)
    }

    /// A sparse file of `size` bytes: no disk blocks and no memory until read, as fast to make
    /// as an empty one.
    init(sparseSize size: Int64, name: String = "sparse.bin") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-reqser-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        url = folder.appendingPathComponent(name)
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0, ftruncate(descriptor, off_t(size)) == 0 else {
            throw CocoaError(.fileWriteUnknown)
        }
        close(descriptor)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Which files this process holds open, read from `/proc/self/fd`. Tests look for their own
/// file rather than count descriptors, which tests running in parallel also open.
enum FileDescriptors {
    static func isOpen(_ url: URL) -> Bool {
        let target = url.resolvingSymlinksInPath().path
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.contains { entry in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")) == target
        }
    }
}

/// Resident memory of this process, from `/proc/self/status`.
enum ResidentMemory {
    /// `VmRSS` in bytes: what is resident now (not the `VmHWM` high-water mark, which earlier
    /// tests in the same process have already raised).
    static func current() -> Int64 {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            let digits = line.split(separator: " ").dropFirst().first.flatMap { Int64($0) } ?? -1
            return digits * 1024
        }
        return -1
    }
}
