#if canImport(Glibc)
internal import Glibc
#endif

/// Puts a finished download at its destination without ever deleting a directory and without a
/// moment where the destination is gone: `rename(2)` replaces an existing file in one step, so
/// a move that fails leaves the old file as it was (docs/core.md, "Downloads").
enum DownloadFileMove {
    /// Moves `source` to `target`, replacing a file there. Refuses a `target` that is a
    /// directory (or a link to one). Across file systems the file is copied next to `target`
    /// first, then renamed over it.
    static func move(_ source: URL, to target: URL, failingURL: URL?) throws(GannetError) {
        var status = stat()
        if stat(target.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            throw GannetError(
                .downloadMoveFailed,
                "Cannot save the download as \(target.path): it is an existing directory, which a download never replaces; name a file instead",
                failingURL: failingURL
            )
        }
        if rename(source.path, target.path) == 0 { return }
        let code = errno
        guard code == EXDEV else { throw failure(code, target, failingURL) }
        // A hidden sibling of the target: the final rename stays within one file system.
        let staging = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).gannet-\(UUID().uuidString).tmp")
        do {
            try FileManager.default.copyItem(at: source, to: staging)
        } catch {
            unlink(staging.path)
            throw GannetError(
                .downloadMoveFailed,
                "Cannot save the download as \(target.path): copying it there failed: \(error.localizedDescription)",
                failingURL: failingURL,
                underlyingError: error
            )
        }
        if rename(staging.path, target.path) != 0 {
            let renameCode = errno
            unlink(staging.path)
            throw failure(renameCode, target, failingURL)
        }
        unlink(source.path)
    }

    private static func failure(_ code: Int32, _ target: URL, _ failingURL: URL?) -> GannetError {
        GannetError(
            .downloadMoveFailed,
            "Cannot save the download as \(target.path): \(String(cString: strerror(code)))",
            failingURL: failingURL
        )
    }
}
