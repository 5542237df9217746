#if canImport(Glibc)
internal import Glibc
#endif

/// How Gannet writes every file of its own (downloads' temporary and partial files, resume
/// data, saved sessions, cookie files, multipart bodies): created new, private, and never
/// through a path another user may have prepared (docs/security.md, "Files").
///
/// A folder such as `/tmp`, or any folder others can write, lets them plant a symbolic link or
/// a file of their own at a name Gannet is about to use: opening it with `O_CREAT|O_TRUNC`
/// would truncate the link's target, or write a password into a file they own and can read.
/// So a file is only ever created with `O_CREAT|O_EXCL|O_NOFOLLOW` under a random name
/// (`mkstemp(3)`'s rule), checked with `fstat` to be the regular file this user just made, and
/// a destination is only ever replaced with `rename(2)` of such a file, which replaces the
/// name, never what it points to. Every system call's result is checked; a failure is a typed
/// ``PrivateFileError`` and leaves nothing behind.
package enum PrivateFile {
    /// A file just created by ``create(in:prefix:suffix:)``: its open descriptor (the caller
    /// closes it) and its path.
    package struct Created: Sendable {
        package let descriptor: Int32
        package let path: String
    }

    /// Creates a new, empty file `prefix` + random + `suffix` in `directory`, mode 0600, open
    /// for writing. Never opens an existing file or follows a link: a name that exists is
    /// skipped for another random one.
    package static func create(
        in directory: String,
        prefix: String,
        suffix: String = ""
    ) throws(PrivateFileError) -> Created {
        let folder = directory.isEmpty ? "." : directory
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            let random = String(generator.next() as UInt64, radix: 16)
            let name = prefix + String(repeating: "0", count: 16 - random.count) + random + suffix
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if descriptor < 0 {
                let code = errno
                if code == EEXIST || code == EINTR { continue }
                throw PrivateFileError(
                    .cannotCreate,
                    path,
                    "Cannot create a file in \(folder): \(reason(code))",
                    systemError: code
                )
            }
            do throws(PrivateFileError) {
                try verifyPrivate(descriptor, path: path)
            } catch {
                close(descriptor)
                unlink(path)
                throw error
            }
            return Created(descriptor: descriptor, path: path)
        }
        throw PrivateFileError(.cannotCreate, folder, "Cannot create a file in \(folder): no free name after 100 tries")
    }

    /// Replaces `destination` with `data` in one step: see ``replace(_:writing:)``.
    package static func replace(_ destination: String, with data: Data) throws(PrivateFileError) {
        do {
            try replace(destination) { descriptor, temporary in
                try data.withUnsafeBytes { bytes in try write(bytes, to: descriptor, path: temporary) }
            }
        } catch let error as PrivateFileError {
            throw error
        } catch {
            // `writing` above throws only PrivateFileError.
            throw PrivateFileError(.writeFailed, destination, "Cannot write \(destination): \(error)")
        }
    }

    /// Replaces `destination` in one step, so neither a reader nor a crash sees half a file:
    /// `writing` fills a new private file (``create(in:prefix:suffix:)``) in the destination's
    /// folder, which is then flushed (`fsync`), closed and renamed over the destination. The
    /// result is mode 0600 and owned by this user, whoever owned a file there before.
    ///
    /// Refuses (before and again just before the rename) a destination that is a symbolic
    /// link, dangling or not, or not a regular file. Whatever fails, the temporary file is
    /// removed and the destination is left as it was; `writing`'s own error is rethrown.
    package static func replace(
        _ destination: String,
        writing: (_ descriptor: Int32, _ temporaryPath: String) throws -> Void
    ) throws {
        try checkDestination(destination)
        let folder = (destination as NSString).deletingLastPathComponent
        let name = (destination as NSString).lastPathComponent
        let created = try create(in: folder, prefix: ".\(name).", suffix: ".tmp")
        var open = true
        do {
            try writing(created.descriptor, created.path)
            if fsync(created.descriptor) != 0 {
                throw failure(.writeFailed, created.path, "Cannot flush \(destination)")
            }
            open = false
            if close(created.descriptor) != 0 {
                throw failure(.writeFailed, created.path, "Cannot write \(destination)")
            }
            try checkDestination(destination)
            if rename(created.path, destination) != 0 {
                throw failure(.renameFailed, destination, "Cannot replace \(destination)")
            }
        } catch {
            if open { close(created.descriptor) }
            unlink(created.path)
            throw error
        }
        try syncFolder(folder.isEmpty ? "." : folder)
    }

    /// Writes all of `bytes` at the descriptor's offset, retrying short writes and `EINTR`.
    package static func write(
        _ bytes: UnsafeRawBufferPointer,
        to descriptor: Int32,
        path: String
    ) throws(PrivateFileError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw failure(.writeFailed, path, "Cannot write \(path)")
            }
            offset += written
        }
    }

    /// Throws unless `path` is absent or a regular file; a symbolic link is refused whatever
    /// it points to (or whether it points anywhere).
    package static func checkDestination(_ path: String) throws(PrivateFileError) {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            let code = errno
            if code == ENOENT { return }
            throw PrivateFileError(.cannotCreate, path, "Cannot inspect \(path): \(reason(code))", systemError: code)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            return
        case S_IFLNK:
            throw PrivateFileError(
                .destinationIsSymbolicLink,
                path,
                "Refusing to write \(path): it is a symbolic link, and writing there would write where it points"
            )
        default:
            throw PrivateFileError(
                .destinationNotRegularFile,
                path,
                "Refusing to write \(path): it exists and is not a regular file"
            )
        }
    }

    /// Opens an existing file Gannet wrote earlier and means to reuse (a partial download to
    /// continue), with `O_NOFOLLOW`, and checks it is still private (see
    /// ``verifyPrivate(_:path:)``). `flags` is `O_RDONLY` or `O_WRONLY`/`O_RDWR`, without
    /// `O_CREAT`. The caller closes the descriptor.
    package static func openExisting(_ path: String, flags: Int32) throws(PrivateFileError) -> Int32 {
        let descriptor = open(path, flags | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ELOOP {
                throw PrivateFileError(.destinationIsSymbolicLink, path, "Refusing \(path): it is a symbolic link")
            }
            throw PrivateFileError(.cannotCreate, path, "Cannot open \(path): \(reason(code))", systemError: code)
        }
        do throws(PrivateFileError) {
            try verifyPrivate(descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        return descriptor
    }

    /// Reads a file this user owns and only this user can write (a saved session, a cookie
    /// file), not through a symbolic link; `nil` when there is no file. Throws for a file
    /// that is a link, not regular, owned by someone else, writable by group or others, or
    /// larger than `maximumBytes`.
    package static func read(_ path: String, maximumBytes: Int) throws(PrivateFileError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return nil }
            if code == ELOOP {
                throw PrivateFileError(
                    .destinationIsSymbolicLink,
                    path,
                    "Refusing to read \(path): it is a symbolic link"
                )
            }
            throw PrivateFileError(.readFailed, path, "Cannot open \(path): \(reason(code))", systemError: code)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw failure(.notPrivate, path, "Cannot inspect \(path)")
        }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(), status.st_mode & 0o022 == 0 else {
            throw PrivateFileError(
                .notPrivate,
                path,
                "Refusing to read \(path): it is not a regular file that only its owner, this user, can write"
            )
        }
        guard Int64(status.st_size) <= Int64(maximumBytes) else {
            throw PrivateFileError(.fileTooLarge, path, "Refusing to read \(path): larger than \(maximumBytes) bytes")
        }
        var data = Data()
        let chunk = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = Glibc.read(descriptor, buffer, chunk)
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(.readFailed, path, "Cannot read \(path)")
            }
            if count == 0 { return data }
            data.append(buffer.assumingMemoryBound(to: UInt8.self), count: count)
            if data.count > maximumBytes {
                throw PrivateFileError(
                    .fileTooLarge,
                    path,
                    "Refusing to read \(path): larger than \(maximumBytes) bytes"
                )
            }
        }
    }

    /// Throws unless the open file is a regular file owned by this user, linked once, with no
    /// permission for group or others: what `create` just made, or a file only this user
    /// could have left.
    package static func verifyPrivate(_ descriptor: Int32, path: String) throws(PrivateFileError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw failure(.notPrivate, path, "Cannot inspect \(path)")
        }
        guard status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(), status.st_nlink == 1,
            status.st_mode & 0o077 == 0
        else {
            throw PrivateFileError(
                .notPrivate,
                path,
                "Refusing \(path): it is not a regular file private to this user (mode \(String(status.st_mode & 0o7777, radix: 8)), owner \(status.st_uid), \(status.st_nlink) links)"
            )
        }
    }

    /// Makes the rename durable: the folder's entry is flushed too. A file system that cannot
    /// flush a folder (`EINVAL`) has nothing to flush.
    private static func syncFolder(_ folder: String) throws(PrivateFileError) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(.writeFailed, folder, "Cannot flush \(folder)") }
        defer { close(descriptor) }
        if fsync(descriptor) != 0, errno != EINVAL {
            throw failure(.writeFailed, folder, "Cannot flush \(folder)")
        }
    }

    private static func failure(_ code: PrivateFileError.Code, _ path: String, _ message: String) -> PrivateFileError {
        let number = errno
        return PrivateFileError(code, path, "\(message): \(reason(number))", systemError: number)
    }

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}
