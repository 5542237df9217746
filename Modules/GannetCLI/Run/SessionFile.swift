import Gannet

/// `--session NAME|PATH`, httpie's sessions: the cookies, the header items and the `--auth` of
/// one command kept for the next, in a JSON file only its owner can read (0600, in a 0700
/// folder).
///
/// A NAME is `$XDG_CONFIG_HOME/gannet/sessions/HOST_PORT/NAME.json` (`~/.config` without
/// `XDG_CONFIG_HOME`), so a session belongs to one host as in httpie; anything with a `/` is a
/// path. The file is read before the request (its headers go out unless an item sets the same
/// name; its cookies go into the command's storage) and written after the exchange, whatever
/// the status: the headers given as items are added, the cookies are what the storage holds
/// then (expired ones dropped), and a command's `--auth` replaces the kept one (a command
/// without `--auth` uses the kept one, with its `--auth-type`, as httpie does). Format,
/// version 1: `{"version": 1, "headers": {"Name": "value"}, "cookies": [{"name", "value",
/// "domain", "path", "secure", "expires"}], "auth": {"type": "basic|digest|ntlm|bearer", "raw":
/// "USER:PASS" or the token}}` with `expires` in seconds since 1970 or absent, and `auth`
/// absent until a command gave one.
struct SessionFile {
    let path: String

    /// Header names a session never keeps: they describe one request's body or are the
    /// cookies themselves (httpie's list).
    static let unkeptHeaders: Set<String> = ["content-type", "content-length", "cookie", "if-match", "if-none-match"]

    init(_ nameOrPath: String, for url: URL) throws {
        if nameOrPath.contains("/") {
            path = nameOrPath
            return
        }
        guard !nameOrPath.isEmpty, nameOrPath != ".", nameOrPath != ".." else {
            throw CLIError.usage("--session takes a NAME or a PATH, not \(nameOrPath.debugDescription)")
        }
        let environment = ProcessInfo.processInfo.environment
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        let host = (url.host ?? "localhost").replacingOccurrences(of: ":", with: "_")
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        path = "\(config)/gannet/sessions/\(host)_\(port)/\(nameOrPath).json"
    }

    struct Contents: Codable {
        var version = 1
        var headers: [String: String] = [:]
        var cookies: [Cookie] = []
        var auth: Auth?
    }

    /// `--auth` and `--auth-type` as given (with a prompted password added).
    struct Auth: Codable {
        var type: String
        var raw: String
    }

    /// A command without `--auth` takes the session's.
    static func applyAuth(_ contents: Contents, to options: inout Options) {
        guard options.auth == nil, let auth = contents.auth, let type = Options.AuthType(rawValue: auth.type) else {
            return
        }
        options.auth = auth.raw
        options.authType = type
    }

    struct Cookie: Codable {
        var name: String
        var value: String
        var domain: String
        var path: String
        var secure: Bool
        var expires: Double?
    }

    /// The file's contents, or an empty session when there is no file yet.
    ///
    /// Only a file this user owns and no one else can write is read, never through a symbolic
    /// link (``PrivateFile/read(_:maximumBytes:)``): a session planted by someone else would
    /// send their headers and cookies (docs/cli.md, "Sessions").
    func load() throws -> Contents {
        let read: Data?
        do {
            read = try PrivateFile.read(path, maximumBytes: Self.maximumFileBytes)
        } catch {
            throw CLIError("cannot read the session file \(path): \(error.message)")
        }
        guard let data = read else { return Contents() }
        let contents: Contents
        do {
            contents = try JSONDecoder().decode(Contents.self, from: data)
        } catch {
            throw CLIError("the session file \(path) is not a gannet session: \(error)")
        }
        guard contents.version == 1 else {
            throw CLIError("the session file \(path) has version \(contents.version); this gannet reads version 1")
        }
        return contents
    }

    /// Puts the session's cookies into `storage` and its headers into `request` where the
    /// request has none of that name.
    static func apply(_ contents: Contents, to request: inout URLRequest, storage: EphemeralCookieStorage) {
        for (name, value) in contents.headers where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let cookies = contents.cookies.compactMap { cookie -> HTTPCookie? in
            var properties: [HTTPCookiePropertyKey: Any] = [
                .name: cookie.name, .value: cookie.value, .domain: cookie.domain, .path: cookie.path,
            ]
            if cookie.secure { properties[.secure] = "TRUE" }
            if let expires = cookie.expires { properties[.expires] = Date(timeIntervalSince1970: expires) }
            return HTTPCookie(properties: properties)
        }
        // Judged again as a cookie file's are: the file may predate a rule (docs/cli.md, "Sessions").
        storage.restore(cookies)
    }

    /// Writes the session: the old headers with `headerItems` added, and `storage`'s cookies.
    func save(
        _ old: Contents,
        headerItems: [(String, String)],
        storage: EphemeralCookieStorage,
        options: Options
    ) throws {
        var contents = old
        if let auth = options.auth { contents.auth = Auth(type: options.authType.rawValue, raw: auth) }
        for (name, value) in headerItems where !Self.unkeptHeaders.contains(name.lowercased()) {
            contents.headers[name] = value
        }
        contents.cookies = storage.cookies.map {
            Cookie(
                name: $0.name,
                value: $0.value,
                domain: $0.domain,
                path: $0.path,
                secure: $0.isSecure,
                expires: $0.expiresDate?.timeIntervalSince1970
            )
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try write(try encoder.encode(contents))
    }

    /// A session file larger than this is refused rather than read.
    static let maximumFileBytes = 16 << 20

    /// Creates the folder (0700) and replaces the file in one step (``PrivateFile/replace(_:with:)``):
    /// a new file created 0600 under a random name next to it (`O_EXCL|O_NOFOLLOW`, so nothing
    /// planted there is written through), flushed, then renamed over it. A session path that is
    /// a symbolic link or not a regular file is refused (docs/cli.md, "Sessions").
    private func write(_ data: Data) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            try FileManager.default.createDirectory(
                atPath: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        }
        do {
            try PrivateFile.replace(path, with: data)
        } catch {
            throw CLIError("cannot write the session file \(path): \(error.message)")
        }
    }
}
