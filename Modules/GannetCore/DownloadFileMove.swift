#if canImport(Glibc)
internal import Glibc
#endif

/// Puts a finished download at its destination without ever deleting a directory, without a
/// moment where the destination is gone, and never through a link: `rename(2)` replaces an
/// existing file in one step, so a move that fails leaves the old file as it was
/// (docs/core.md, "Downloads"; docs/security.md, "Files").
enum DownloadFileMove {
    /// Moves `source` to `target`, replacing a regular file there. Refuses a `target` that is
    /// a directory, a symbolic link (dangling or not: where it points is not what the caller
    /// named) or another kind of file. Across file systems the file is copied into a new
    /// private file next to `target` first (``PrivateFile/replace(_:writing:)``), then renamed
    /// over it.
    static func move(_ source: URL, to target: URL, failingURL: URL?) throws(GannetError) {
        var status = stat()
        if lstat(target.path, &status) == 0 {
            switch status.st_mode & S_IFMT {
            case S_IFREG:
                break
            case S_IFDIR:
                throw GannetError(
                    .downloadMoveFailed,
                    "Cannot save the download as \(target.path): it is an existing directory, which a download never replaces; name a file instead",
                    failingURL: failingURL
                )
            case S_IFLNK:
                throw GannetError(
                    .downloadMoveFailed,
                    "Cannot save the download as \(target.path): it is a symbolic link, which a download never writes through or replaces; name the file itself",
                    failingURL: failingURL
                )
            default:
                throw GannetError(
                    .downloadMoveFailed,
                    "Cannot save the download as \(target.path): it exists and is not a regular file",
                    failingURL: failingURL
                )
            }
        }
        if rename(source.path, target.path) == 0 { return }
        let code = errno
        guard code == EXDEV else { throw failure(code, target, failingURL) }
        do {
            try PrivateFile.replace(target.path) { descriptor, _ in try copy(source.path, to: descriptor) }
        } catch {
            throw GannetError(
                .downloadMoveFailed,
                "Cannot save the download as \(target.path): copying it there failed: \((error as? PrivateFileError)?.message ?? "\(error)")",
                failingURL: failingURL,
                underlyingError: error
            )
        }
        unlink(source.path)
    }

    /// Copies the file at `path` (not through a link) to `descriptor`.
    private static func copy(_ path: String, to descriptor: Int32) throws(PrivateFileError) {
        let input = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard input >= 0 else {
            let code = errno
            throw PrivateFileError(
                .readFailed,
                path,
                "Cannot open \(path): \(String(cString: strerror(code)))",
                systemError: code
            )
        }
        defer { close(input) }
        let size = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer, size)
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                throw PrivateFileError(
                    .readFailed,
                    path,
                    "Cannot read \(path): \(String(cString: strerror(code)))",
                    systemError: code
                )
            }
            if count == 0 { return }
            try PrivateFile.write(UnsafeRawBufferPointer(start: buffer, count: count), to: descriptor, path: path)
        }
    }

    private static func failure(_ code: Int32, _ target: URL, _ failingURL: URL?) -> GannetError {
        GannetError(
            .downloadMoveFailed,
            "Cannot save the download as \(target.path): \(String(cString: strerror(code)))",
            failingURL: failingURL
        )
    }
}
