import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Standard input as a request body, httpie's way: a pipe or a redirected file is the body;
/// a terminal, `/dev/null` or another device is not. It is never silently ignored: with data
/// items, `--raw` or `@FILE` it is a usage error (``Invocation/rawBody(items:options:stdin:)``)
/// unless `--ignore-stdin`.
enum StandardInput {
    /// What file descriptor 0 is.
    enum Kind: Equatable, Sendable, CustomStringConvertible {
        /// Nothing to read: a terminal, a device such as `/dev/null`, an empty file, or closed.
        case none
        /// A pipe, FIFO or socket: its length is known only at its end.
        case pipe
        /// A regular file with bytes left (`gannet URL < body.json`).
        case file

        var description: String {
            switch self {
            case .none: return "nothing"
            case .pipe: return "a pipe"
            case .file: return "a file"
            }
        }
    }

    /// The kind of file descriptor 0.
    static func probe() -> Kind {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0, isatty(STDIN_FILENO) == 0 else { return .none }
        switch info.st_mode & S_IFMT {
        case S_IFIFO, S_IFSOCK:
            return .pipe
        case S_IFREG:
            let offset = lseek(STDIN_FILENO, 0, SEEK_CUR)
            return Int64(info.st_size) > max(Int64(offset), 0) ? .file : .none
        default:
            return .none
        }
    }

    /// How long to wait for a first byte before saying that stdin is being read, in milliseconds.
    static let patience: Int32 = 10_000

    /// Reads up to `limit` bytes: all of stdin when it is small. `warn` is called once if
    /// nothing arrives for ``patience`` milliseconds (a pipe nobody writes to), as httpie does.
    /// Waits in short polls, so that Ctrl-C (``Interrupt``) ends a wait for a silent pipe.
    static func readPrefix(limit: Int, warn: () -> Void) throws -> (data: Data, ended: Bool) {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var waited: Int32 = 0
        while data.count < limit {
            try waitUntilReadable { slice in
                waited += slice
                if data.isEmpty, waited >= patience, waited - slice < patience { warn() }
            }
            let count = buffer.withUnsafeMutableBytes {
                Glibc.read(STDIN_FILENO, $0.baseAddress, min($0.count, limit - data.count))
            }
            if count == 0 { return (data, true) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                throw CLIError("cannot read stdin: \(String(cString: strerror(errno)))")
            }
            data.append(contentsOf: buffer[0..<count])
        }
        return (data, false)
    }

    /// Returns when stdin has bytes, has ended or failed (`read` tells which); `waiting` is told
    /// of each silent slice. Throws `CancellationError` once Ctrl-C was pressed.
    private static func waitUntilReadable(waiting: (Int32) -> Void) throws {
        let slice: Int32 = 250
        while true {
            var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, slice)
            if Interrupt.happened { throw CancellationError() }
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
            if ready == 0 { waiting(slice) }
        }
    }
}
