public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where a download's bytes go when the run asks for `--output FILE`: plain `write(2)`, the
/// same for every client, so the figures compare the clients and not their file APIs.
public final class OutputFile: @unchecked Sendable {
    // @unchecked: every client writes from one thread at a time (its transfer's callback or
    // its single consuming task); the descriptor never changes after init.
    private let descriptor: Int32

    /// Creates (or truncates) `path`; ends the run with exit code 1 when that fails.
    public init(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if descriptor < 0 { Report.fail("cannot open \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(descriptor) }

    /// Writes all of `bytes`; ends the run with exit code 1 on a write error.
    public func write(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                Report.fail("write failed: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// Writes all of `data`.
    public func write(_ data: Data) {
        data.withUnsafeBytes { write($0) }
    }
}

/// The size of a file in bytes, or the run ends with exit code 1.
public func fileSize(_ path: String) -> Int64 {
    var info = stat()
    guard stat(path, &info) == 0 else { Report.fail("cannot stat \(path): \(String(cString: strerror(errno)))") }
    return Int64(info.st_size)
}
