import Gannet

#if canImport(Glibc)
import Glibc
#endif

/// The bytes of an ``Invocation/Body``, ready for a request: small bodies as data (sent with
/// a `Content-Length`, shown by `-v`), large ones as a ``DescriptorInputStream`` (constant
/// memory, `Content-Length` when the size is known, chunked otherwise).
enum RawBody {
    case data(Data)
    case stream(DescriptorInputStream, length: Int64?)
    /// Stdin ended before its first byte: there is no body.
    case empty

    /// Bodies up to this size are read into memory.
    static let smallLimit = 64 * 1024

    /// Reads or opens `body`; `warn` is told when stdin keeps the command waiting.
    static func load(_ body: Invocation.Body, warn: () -> Void) throws -> RawBody {
        switch body {
        case .text(let text):
            return .data(Data(text.utf8))
        case .file(let path):
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            var info = stat()
            guard descriptor >= 0 else { throw CLIError("cannot read \(path): \(String(cString: strerror(errno)))") }
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                throw CLIError("cannot send \(path) as the body: not a regular file")
            }
            return .stream(
                DescriptorInputStream(descriptor: descriptor, ownsDescriptor: true),
                length: Int64(info.st_size)
            )
        case .stdin:
            let kind = StandardInput.probe()
            let (prefix, ended) = try StandardInput.readPrefix(limit: smallLimit, warn: warn)
            if ended { return prefix.isEmpty ? .empty : .data(prefix) }
            var length: Int64?
            if kind == .file {
                var info = stat()
                let offset = lseek(STDIN_FILENO, 0, SEEK_CUR)
                if fstat(STDIN_FILENO, &info) == 0, offset >= 0 {
                    length = Int64(prefix.count) + Int64(info.st_size) - Int64(offset)
                }
            }
            return .stream(
                DescriptorInputStream(descriptor: STDIN_FILENO, prefix: prefix, ownsDescriptor: false),
                length: length
            )
        }
    }

    /// The `Content-Type` to send when no header item sets one: httpie's (JSON unless
    /// `--form`) for stdin and `--raw`, the extension's type for `@FILE` (none for an unknown
    /// extension, rather than a guess).
    static func contentType(for body: Invocation.Body, options: Options) -> String? {
        switch body {
        case .text, .stdin:
            return options.bodyMode == .form ? "application/x-www-form-urlencoded; charset=utf-8" : "application/json"
        case .file(let path):
            if options.explicitJSON { return "application/json" }
            let type = MIMEType.forPathExtension((path as NSString).pathExtension)
            return type == MIMEType.fallback ? nil : type
        }
    }

}
