@testable import GannetCore

extension FuzzTarget {
    /// `SetCookieLine.parse` (RFC 6265bis §5.6) and the storage model and retrieval behind it
    /// (§5.7, §5.8.3). Invariants: it never traps; a parsed line has no control character other
    /// than HTAB, name and value within 4096 bytes, a `Path` starting with `/`, a lower-case
    /// `Domain` without a leading dot; what is stored matches its origin, holds no public-suffix
    /// `Domain`, no `Secure` cookie from http; the `Cookie` field stays within its cap. Each line
    /// of the input is one `Set-Cookie` line; the first byte picks the origin's scheme.
    static let setCookie = FuzzTarget(name: "set-cookie") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let secure = (bytes.first ?? 0) & 1 == 1
        let origin = CookieStore.Origin(host: "www.example.co.uk", path: "/a/b/", isSecure: secure)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var store = CookieStore(limits: .init(perSite: 20, total: 40, headerBytes: 8190))
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(line)
            if let parsed = SetCookieLine.parse(line) {
                let isControl: (UInt8) -> Bool = { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }
                require(
                    !(parsed.name + parsed.value).utf8.contains(where: isControl),
                    "control in \(line.debugDescription)"
                )
                require(parsed.name.utf8.count + parsed.value.utf8.count <= 4096, "size of \(line.debugDescription)")
                require(
                    parsed.path.map { $0.utf8.first == UInt8(ascii: "/") } ?? true,
                    "path \(String(describing: parsed.path))"
                )
                if let domain = parsed.domain {
                    require(
                        domain.utf8.first != UInt8(ascii: ".") && domain == domain.lowercased(),
                        "domain \(domain.debugDescription)"
                    )
                }
            }
            if case .stored(let cookie) = store.receive(line, from: origin, now: now) {
                require(
                    cookie.hostOnly
                        ? cookie.domain == origin.host : CookieStore.domainMatches(origin.host, cookie.domain),
                    "domain \(cookie.domain)"
                )
                require(
                    cookie.hostOnly || !PublicSuffix.isPublicSuffix(cookie.domain),
                    "public suffix \(cookie.domain)"
                )
                require(!cookie.secure || secure, "Secure from http: \(line.debugDescription)")
                if CookieStore.hasPrefix(cookie.name, "__Host-") {
                    require(
                        cookie.secure && cookie.hostOnly && cookie.path == "/",
                        "__Host- rules: \(line.debugDescription)"
                    )
                }
            }
        }
        require(store.cookies.count <= 40, "\(store.cookies.count) cookies kept")
        let field = store.header(for: origin, now: now) ?? ""
        require(field.utf8.count <= 8190, "Cookie field of \(field.utf8.count) bytes")
    }
}
