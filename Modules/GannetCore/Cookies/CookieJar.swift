internal import Synchronization

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Gannet's cookie storage, by RFC 6265bis: the default of ``SessionConfiguration``, private to
/// the configuration that created it and kept in memory. Nothing is written to disk unless the
/// caller names a file (``init(contentsOf:)``, ``save()``), which is then created mode 0600 and
/// replaced atomically (docs/auth-cookies-cache.md, "Cookies").
///
/// ```swift
/// let jar = try CookieJar(contentsOf: URL(fileURLWithPath: "/home/me/.config/app/cookies.json"))
/// var configuration = SessionConfiguration.default
/// configuration.httpCookieStorage = jar
/// // ... requests ...
/// try jar.save()
/// ```
///
/// It holds at most 180 cookies a site and 3000 in all (the least recently used go first),
/// 4096 bytes of name and value a cookie, and sends at most 8190 bytes of `Cookie` field.
public final class CookieJar: CookieStoring {
    private struct State {
        var store = CookieStore()
        var policy: HTTPCookie.AcceptPolicy = .always
    }

    private let state = Mutex(State())
    /// The file ``save()`` writes, when there is one.
    public let fileURL: URL?

    /// An empty jar in memory, never written to disk.
    public init() {
        fileURL = nil
    }

    /// A jar kept in `file`: its persistent cookies are loaded now when the file exists, and
    /// ``save()`` writes them back. The file is refused (``GannetError/Code/cookieFileFailed``)
    /// when it is a symbolic link, not a regular file, not the user's own, writable by others,
    /// larger than 16 MiB or not a cookie file; cookies in it that break the rules are dropped.
    public init(contentsOf file: URL) throws {
        fileURL = file
        let loaded = try CookieFile.load(file)
        let now = Date()
        state.withLock { state in
            for cookie in loaded {
                _ = state.store.store(cookie, fromSecureOrigin: true, now: now)
            }
        }
    }

    /// Writes the persistent cookies (session cookies never) to ``fileURL``: a new file, mode
    /// 0600, in the same directory, synced, then renamed over the old one; a symbolic link at
    /// the destination is refused. Throws ``GannetError/Code/cookieFileFailed`` without a file.
    public func save() throws {
        guard let fileURL else {
            throw GannetError(.cookieFileFailed, "This cookie jar has no file: create it with CookieJar(contentsOf:)")
        }
        try save(to: fileURL)
    }

    /// Writes the persistent cookies to `file`, as ``save()`` does.
    public func save(to file: URL) throws {
        let now = Date()
        let cookies = state.withLock { state in
            state.store.removeExpired(now: now)
            return state.store.cookies.filter { $0.expires != nil }
        }
        try CookieFile.save(cookies, to: file)
    }

    /// Every cookie held, expired ones removed (nameless ones, which `HTTPCookie` cannot hold,
    /// left out).
    public var cookies: [HTTPCookie] {
        let now = Date()
        return state.withLock { state in
            state.store.removeExpired(now: now)
            return state.store.cookies.compactMap(\.httpCookie)
        }
    }

    /// `.always` by default; `.never` stores nothing.
    public var cookieAcceptPolicy: HTTPCookie.AcceptPolicy {
        get { state.withLock { $0.policy } }
        set { state.withLock { $0.policy = newValue } }
    }

    /// The cookies that go to `url`, in the order they are sent (§5.8.3).
    public func cookies(for url: URL) -> [HTTPCookie]? {
        guard let origin = CookieStore.Origin(url) else { return [] }
        let now = Date()
        return state.withLock { $0.store.cookies(for: origin, now: now) }.compactMap(\.httpCookie)
    }

    /// Stores cookies given by the caller (a saved session, for example) as if received over a
    /// secure connection: each must hold a name, a value and a domain within the limits; the
    /// domain and prefix rules of RFC 6265bis are not applied, the caller being trusted.
    public func setCookies(_ cookies: [HTTPCookie], for url: URL?, mainDocumentURL: URL?) {
        let now = Date()
        state.withLock { state in
            guard state.policy != .never else { return }
            for (offset, cookie) in cookies.enumerated() {
                // Foundation keeps no creation time: the given order stands for it.
                guard let stored = StoredCookie(cookie, created: now.addingTimeInterval(Double(offset) * 1e-6)) else {
                    continue
                }
                _ = state.store.store(stored, fromSecureOrigin: true, now: now)
            }
        }
    }

    /// Removes every cookie.
    public func removeAll() {
        state.withLock { $0.store = CookieStore(limits: $0.store.limits) }
    }

    // MARK: The engine's way in

    /// Stores the `Set-Cookie` lines of one response from `url`, each line one cookie.
    func receive(_ lines: [String], from url: URL) -> [CookieStore.Outcome] {
        guard let origin = CookieStore.Origin(url) else { return [] }
        let now = Date()
        return state.withLock { state in
            guard state.policy != .never else { return [] }
            return lines.map { state.store.receive($0, from: origin, now: now) }
        }
    }

    /// The `Cookie` field for a request to `url`, or `nil`.
    func header(for url: URL) -> String? {
        // An empty jar (a client's default, which most servers never fill) answers without
        // parsing the URL into an origin: that parse was 9,000 instructions a request
        // (callgrind, docs/performance.md).
        guard state.withLock({ !$0.store.cookies.isEmpty }) else { return nil }
        guard let origin = CookieStore.Origin(url) else { return nil }
        let now = Date()
        return state.withLock { $0.store.header(for: origin, now: now) }
    }

    /// For tests: the cookies as stored.
    var storedCookies: [StoredCookie] { state.withLock { $0.store.cookies } }
}
