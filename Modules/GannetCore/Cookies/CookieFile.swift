#if canImport(Glibc)
internal import Glibc
#endif

/// A ``CookieJar``'s file: JSON `{"version": 1, "cookies": [...]}` holding persistent cookies
/// only. It holds secrets, so it is read only when it is the user's own regular file that no one
/// else may write, and written as a new file (`mkstemp`: `O_CREAT|O_EXCL`, mode 0600) in the
/// same directory, synced, then renamed over the destination, so a reader sees the old file or
/// the new one, never part of one (docs/auth-cookies-cache.md, "Cookies"). A symbolic link at
/// the destination is refused, never followed.
enum CookieFile {
    private struct Contents: Codable {
        var version: Int
        var cookies: [StoredCookie]
    }

    /// 3000 cookies of 4 KiB with their attributes fit well under this.
    static let maximumBytes = 16 << 20

    /// The cookies in `file`, `[]` when there is no file; each checked against the rules a
    /// stored cookie keeps (a malicious file cannot hold an over-long or control-laden cookie).
    static func load(_ file: URL) throws(GannetError) -> [StoredCookie] {
        let path = file.path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            let code = errno
            if code == ENOENT { return [] }
            if code == ELOOP { throw failure("it is a symbolic link, which is never followed", path) }
            throw failure("open: \(String(cString: strerror(code)))", path)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure("fstat: \(String(cString: strerror(errno)))", path) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw failure("it is not a regular file", path) }
        guard status.st_uid == geteuid() else { throw failure("it belongs to another user", path) }
        guard status.st_mode & 0o022 == 0 else {
            throw failure("others may write it (mode \(String(status.st_mode & 0o777, radix: 8)))", path)
        }
        guard Int(status.st_size) <= maximumBytes else { throw failure("it is larger than 16 MiB", path) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read: \(String(cString: strerror(errno)))", path)
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[..<count])
            guard data.count <= maximumBytes else { throw failure("it is larger than 16 MiB", path) }
        }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: data), contents.version == 1 else {
            throw failure("it is not a Gannet cookie file (version 1)", path)
        }
        return contents.cookies.filter(isSound)
    }

    /// What a file may hold: the checks of §5.6 and §5.7 that do not depend on a request.
    static func isSound(_ cookie: StoredCookie) -> Bool {
        guard StoredCookie.isAcceptable(name: cookie.name, value: cookie.value), !cookie.domain.isEmpty,
            cookie.domain.utf8.allSatisfy({ $0 < 0x80 && $0 > 0x20 && $0 != UInt8(ascii: ";") }),
            cookie.path.hasPrefix("/"), cookie.path.utf8.count <= SetCookieLine.maximumAttributeValueBytes,
            !cookie.path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") })
        else { return false }
        // A public suffix is only ever a host-only cookie's host (§5.7 step 9).
        if !cookie.hostOnly, PublicSuffix.isPublicSuffix(cookie.domain) { return false }
        if CookieStore.hasPrefix(cookie.name, "__Secure-"), !cookie.secure { return false }
        if CookieStore.hasPrefix(cookie.name, "__Host-"), !cookie.secure || !cookie.hostOnly || cookie.path != "/" {
            return false
        }
        return true
    }

    /// Writes `cookies` to `file` atomically, mode 0600.
    static func save(_ cookies: [StoredCookie], to file: URL) throws(GannetError) {
        let path = file.path
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(Contents(version: 1, cookies: cookies))
        } catch {
            throw failure("encoding: \(error)", path)
        }
        // Refuse what is not a file we may replace: a link (even a dangling one) or a directory.
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT != S_IFLNK else {
                throw failure("it is a symbolic link, which is never followed", path)
            }
            guard status.st_mode & S_IFMT == S_IFREG else { throw failure("it is not a regular file", path) }
        }
        let directory = file.deletingLastPathComponent().path
        var template = Array("\(directory)/.\(file.lastPathComponent).XXXXXX".utf8CString)
        // mkstemp creates the file new (O_CREAT|O_EXCL) with mode 0600, whatever the umask.
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else { throw failure("mkstemp: \(String(cString: strerror(errno)))", path) }
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        let written = fill(descriptor, with: data, path: path)
        close(descriptor)
        if let written { throw written }
        guard rename(temporary, path) == 0 else { throw failure("rename: \(String(cString: strerror(errno)))", path) }
        renamed = true
        // The rename itself reaches the disk with the directory's entry.
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    /// Sets the mode, writes every byte and syncs: the error of the first step that failed.
    private static func fill(_ descriptor: Int32, with data: Data, path: String) -> GannetError? {
        // mkstemp's 0600 is checked rather than trusted; fchmod failing is a failure.
        guard fchmod(descriptor, 0o600) == 0 else {
            return failure("fchmod: \(String(cString: strerror(errno)))", path)
        }
        var offset = 0
        let bytes = [UInt8](data)
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return failure("write: \(String(cString: strerror(errno)))", path)
            }
            offset += count
        }
        guard fsync(descriptor) == 0 else { return failure("fsync: \(String(cString: strerror(errno)))", path) }
        return nil
    }

    private static func failure(_ reason: String, _ path: String) -> GannetError {
        GannetError(.cookieFileFailed, "The cookie file \(path) was refused: \(reason)")
    }
}
