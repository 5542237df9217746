/// A ``CookieJar``'s file: JSON `{"version": 1, "cookies": [...]}` holding persistent cookies
/// only. It holds secrets, so it goes through `PrivateFile` (docs/auth-cookies-cache.md,
/// "Cookies"): read only when it is the user's own regular file that no one else may write,
/// through `O_NOFOLLOW`; written as a new 0600 file in the same folder, synced, then renamed
/// over the destination, so a reader sees the old file or the new one, never part of one; a
/// symbolic link at the destination, dangling or not, is refused, never followed.
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
        let read = Result { () throws(PrivateFileError) in try PrivateFile.read(file.path, maximumBytes: maximumBytes) }
        let data: Data
        switch read {
        case .success(.some(let bytes)): data = bytes
        case .success(.none): return []
        case .failure(let error): throw GannetError(.cookieFileFailed, error.message, underlyingError: error)
        }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: data), contents.version == 1 else {
            throw failure("it is not a Gannet cookie file (version 1)", file.path)
        }
        return contents.cookies.filter(isSound)
    }

    /// What a file may hold: the checks of §5.6 and §5.7 that do not depend on a request.
    static func isSound(_ cookie: StoredCookie) -> Bool {
        guard StoredCookie.isAcceptable(name: cookie.name, value: cookie.value), !cookie.domain.isEmpty,
            cookie.domain.utf8.allSatisfy({ $0 < 0x80 && $0 > 0x20 && $0 != UInt8(ascii: ";") }),
            cookie.path.utf8.first == UInt8(ascii: "/"),
            cookie.path.utf8.count <= SetCookieLine.maximumAttributeValueBytes,
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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(Contents(version: 1, cookies: cookies))
        } catch {
            throw failure("encoding: \(error)", file.path)
        }
        let written = Result { () throws(PrivateFileError) in try PrivateFile.replace(file.path, with: data) }
        if case .failure(let error) = written {
            throw GannetError(.cookieFileFailed, error.message, underlyingError: error)
        }
    }

    private static func failure(_ reason: String, _ path: String) -> GannetError {
        GannetError(.cookieFileFailed, "The cookie file \(path) was refused: \(reason)")
    }
}
