internal import CCurl

/// Owns one libcurl easy handle. Used only on the engine thread.
final class EasyHandle {
    let raw: UnsafeMutableRawPointer
    /// The `curl_slist`s of engine-wide options (``applyRouting(_:)``): libcurl keeps the
    /// pointer, not a copy, so each list lives as long as the handle.
    private(set) var engineLists: [HeaderList] = []
    /// A hop's credential is set on the handle (``HopOptions/setCredential(_:_:)``): the next
    /// hop without one must clear it. A new handle carries none (libcurl's defaults: Basic, no
    /// user, no password).
    var carriesCredential = false
    /// What ``TLSVerification/configure(_:transfer:)`` last set on the handle: whether Gannet
    /// decides trust, and the share of TLS sessions, connections and DNS (held, so that the
    /// share the handle is attached to outlives its use).
    var trustSettings: (evaluates: Bool, share: SessionShare)?

    init() {
        guard let raw = curl_easy_init() else {
            // curl_easy_init fails only when malloc fails; there is no sensible recovery.
            fatalError("curl_easy_init failed: out of memory")
        }
        self.raw = raw
    }

    deinit { curl_easy_cleanup(raw) }

    func set(_ option: CURLoption, _ value: Int) {
        _ = ccurl_easy_setopt_long(raw, option, value)
    }

    func set(_ option: CURLoption, _ value: Bool) {
        _ = ccurl_easy_setopt_long(raw, option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, offset value: Int64) {
        _ = ccurl_easy_setopt_off_t(raw, option, curl_off_t(value))
    }

    /// libcurl copies string options (since 7.17), so the Swift string may go away afterwards.
    func set(_ option: CURLoption, _ value: String?) {
        if let value {
            _ = value.withCString { ccurl_easy_setopt_string(raw, option, $0) }
        } else {
            _ = ccurl_easy_setopt_string(raw, option, nil)
        }
    }

    func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer?) {
        _ = ccurl_easy_setopt_pointer(raw, option, pointer)
    }

    func info(long info: CURLINFO) -> Int {
        var value = 0
        _ = ccurl_easy_getinfo_long(raw, info, &value)
        return value
    }

    func info(offset info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        _ = ccurl_easy_getinfo_off_t(raw, info, &value)
        return Int64(value)
    }

    /// Whether the last transfer on this handle heard an authentication challenge: a `401`'s
    /// `WWW-Authenticate` or a `407`'s `Proxy-Authenticate` (libcurl's `CURLINFO_HTTPAUTH_AVAIL`
    /// and `CURLINFO_PROXYAUTH_AVAIL`, which it clears when a transfer starts). libcurl 7.88
    /// keeps a Digest challenge's realm, nonce and count in the easy handle, not the connection,
    /// even when the handle was not asked for Digest, and answers the next Digest transfer on
    /// that handle from them, without a probe and whatever its origin; only `curl_easy_reset` or
    /// a new handle forgets them. So a handle that heard one is never reused (CurlEngine.detach,
    /// docs/engine.md "Authentication").
    var heardChallenge: Bool {
        info(long: CURLINFO_HTTPAUTH_AVAIL) != 0 || info(long: CURLINFO_PROXYAUTH_AVAIL) != 0
    }

    func info(string info: CURLINFO) -> String? {
        var value: UnsafeMutablePointer<CChar>? = nil
        _ = ccurl_easy_getinfo_string(raw, info, &value)
        return value.map { String(cString: $0) }
    }
}

extension EasyHandle {
    /// Sets the options every transfer of one engine shares, once per handle. Per-request
    /// options are set by `Transfer.configure` each time.
    func applyEngineOptions(_ configuration: SessionConfiguration, proxy: ProxyRoute) {
        set(CURLOPT_NOSIGNAL, true)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_FOLLOWLOCATION, false)
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, true)
        // libcurl's default since 7.42.1, stated: the request's headers go to the origin only,
        // CURLOPT_PROXYHEADER's to the proxy only (Transfer.configure).
        set(CURLOPT_HEADEROPT, Int(CURLHEADER_SEPARATE))
        _ = ccurl_easy_setopt_write_function(raw, CURLOPT_HEADERFUNCTION, transferHeaderCallback)
        _ = ccurl_easy_setopt_write_function(raw, CURLOPT_WRITEFUNCTION, transferWriteCallback)
        _ = ccurl_easy_setopt_read_function(raw, transferReadCallback)
        if configuration.decompressesResponses { set(CURLOPT_ACCEPT_ENCODING, "") }
        switch configuration.httpVersion {
        case .http1_1: set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
        case .http2PriorKnowledge: set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE))
        default: set(CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        }
        // Both set, so libcurl never reads the environment itself (ProxyRoute); a proxy for
        // https that differs from http's is set per hop (HopOptions.setRequest).
        set(CURLOPT_PROXY, proxy.http)
        set(CURLOPT_NOPROXY, proxy.bypass)
        let tls = configuration.tls
        if let caFile = tls.caFile { set(CURLOPT_CAINFO, caFile) }
        if let caDirectory = tls.caDirectory { set(CURLOPT_CAPATH, caDirectory) }
        if let client = tls.clientCertificate {
            set(CURLOPT_SSLCERT, client.certificateFile)
            set(CURLOPT_SSLCERTTYPE, client.format.rawValue)
            if let key = client.keyFile { set(CURLOPT_SSLKEY, key) }
            if let password = client.password { set(CURLOPT_KEYPASSWD, password) }
        }
        TLSVerification.install(on: self)
        applyRouting(configuration.routing)
    }

    /// `--resolve`, `--connect-to` and `--unix-socket`: the same for every transfer of the
    /// engine, so the connections of its pool (libcurl matches them on the URL's host and the
    /// connect-to target or socket path too) were all made under the same routing; another
    /// manager has a pool of its own (docs/core.md, "Reaching a host another way").
    private func applyRouting(_ routing: SessionConfiguration.Routing) {
        guard !routing.isEmpty else { return }
        if !routing.resolve.isEmpty {
            let list = HeaderList(routing.resolve.map(\.description))
            engineLists.append(list)
            _ = ccurl_easy_setopt_slist(raw, CURLOPT_RESOLVE, list.raw)
        }
        if !routing.connectTo.isEmpty {
            let list = HeaderList(routing.connectTo.map(\.description))
            engineLists.append(list)
            _ = ccurl_easy_setopt_slist(raw, CURLOPT_CONNECT_TO, list.raw)
        }
        // Checked again by every task before it is sent (Transfer.configure); an invalid path is
        // never set.
        if let path = routing.unixSocketPath, (try? routing.validate()) != nil {
            set(CURLOPT_UNIX_SOCKET_PATH, path)
        }
    }
}

/// Owns a `curl_slist` of request headers for the life of one transfer hop.
final class HeaderList {
    private(set) var raw: UnsafeMutablePointer<curl_slist>? = nil

    init(_ lines: [String]) {
        for line in lines {
            raw = line.withCString { curl_slist_append(raw, $0) }
        }
    }

    deinit { curl_slist_free_all(raw) }

    /// The lines, in order: what libcurl is given (HopOptionsTests read them back).
    var lines: [String] {
        var lines: [String] = []
        var node = raw
        while let current = node {
            if let data = current.pointee.data { lines.append(String(cString: data)) }
            node = current.pointee.next
        }
        return lines
    }
}

/// Owns a libcurl share handle that holds one manager's caches for one trust scope
/// (``CurlEngine/sessionShare(for:)``): its TLS sessions (`CURL_LOCK_DATA_SSL_SESSION`), its
/// connections (`CURL_LOCK_DATA_CONNECT`: an easy handle with this share takes and returns
/// connections here, not in the loop's multi handle) and its DNS entries (`CURL_LOCK_DATA_DNS`,
/// where `CURLOPT_RESOLVE` puts the manager's routing). Managers on one loop therefore never
/// reuse each other's connections or sessions, nor resolve through each other's overrides
/// (docs/engine.md, "Engines shared across managers"). Loop thread only, so it needs no lock
/// functions.
final class SessionShare {
    let raw: UnsafeMutableRawPointer

    init() {
        guard let raw = curl_share_init() else { fatalError("curl_share_init failed: out of memory") }
        self.raw = raw
        _ = ccurl_share_setopt_long(raw, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue))
        _ = ccurl_share_setopt_long(raw, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_CONNECT.rawValue))
        _ = ccurl_share_setopt_long(raw, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
    }

    /// Refused (`CURLSHE_IN_USE`) while an easy handle still uses the share; the engine frees
    /// its shares only after its handles.
    deinit { curl_share_cleanup(raw) }
}

/// Owns the libcurl multi handle of one ``EngineLoop``: the transfers of every manager on it (each
/// manager's connections and DNS entries are in its ``SessionShare``s).
final class MultiHandle {
    let raw: UnsafeMutableRawPointer

    init() {
        guard let raw = curl_multi_init() else { fatalError("curl_multi_init failed: out of memory") }
        self.raw = raw
    }

    deinit { curl_multi_cleanup(raw) }

    func set(_ option: CURLMoption, _ value: Int) {
        _ = ccurl_multi_setopt_long(raw, option, value)
    }
}

/// libcurl's process-wide initialisation, done once before the first handle is made.
enum CurlGlobal {
    static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    /// The codings this libcurl decodes, in the form and order `CURLOPT_ACCEPT_ENCODING ""`
    /// offers them (`deflate, gzip, br, zstd` with every decoder built in). Gannet sends this
    /// `Accept-Encoding` line itself (HopOptions.setBodyAndHeaders): libcurl 7.88 writes its own
    /// through `aprintf` and then copies it into the request through its printf engine again, a
    /// byte at a time; a header line of the request's own goes through that engine once. For
    /// these 42 bytes that is 3,300 fewer instructions a request (callgrind,
    /// docs/performance.md). libcurl still decodes: `CURLOPT_ACCEPT_ENCODING` stays set, and it
    /// leaves out its own line whenever the request carries one.
    static let contentCodings: String = {
        guard let features = ccurl_version_info()?.pointee.features else { return "" }
        var codings: [String] = []
        if features & CURL_VERSION_LIBZ != 0 { codings += ["deflate", "gzip"] }
        if features & CURL_VERSION_BROTLI != 0 { codings.append("br") }
        if features & CURL_VERSION_ZSTD != 0 { codings.append("zstd") }
        return codings.joined(separator: ", ")
    }()

    /// The `Accept-Encoding` line offering ``contentCodings``, made once: made for each request,
    /// it cost about 700 instructions (a handle's configuration 8,201, then 7,516; callgrind,
    /// docs/performance.md). Empty when this libcurl decodes nothing.
    static let acceptEncodingLine = acceptEncodingLine(offering: contentCodings)

    /// The `Accept-Encoding` line offering `codings`; empty when there are none.
    static func acceptEncodingLine(offering codings: String) -> String {
        codings.isEmpty ? "" : "Accept-Encoding: " + codings
    }

    /// The libcurl version string, for the User-Agent and diagnostics.
    static var version: String {
        guard let info = ccurl_version_info(), let version = info.pointee.version else { return "unknown" }
        return String(cString: version)
    }
}
