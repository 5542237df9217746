internal import CPSL

/// The Public Suffix List through the system's libpsl, as libcurl uses it: the newest list the
/// system has (`/usr/share/publicsuffix`, kept current by the distribution), or the one built
/// into libpsl when that file cannot be read. RFC 6265bis §5.7 step 9 refuses a cookie whose
/// `Domain` is a public suffix (`com`, `co.uk`), which would otherwise reach every site under it.
enum PublicSuffix {
    /// libpsl's context: loaded once, immutable afterwards; libpsl's lookups only read it, so it
    /// may be shared by every thread.
    private struct Context: @unchecked Sendable {
        let pointer: OpaquePointer?
    }

    private static let context = Context(pointer: psl_latest(nil) ?? psl_builtin())

    /// Whether `domain` (lower case, no leading dot) is a public suffix. A rule that only the
    /// list's implicit `*` matches does not count, as in libcurl and browsers: `localhost` and
    /// other unlisted names are not public suffixes.
    static func isPublicSuffix(_ domain: String) -> Bool {
        guard let pointer = context.pointer else { return false }
        return psl_is_public_suffix2(pointer, domain, cpsl_cookie_suffix_types) != 0
    }

    /// The registrable domain ("eTLD+1") of `host`, the unit the store's per-site limit counts
    /// in; `host` itself when it has none (an IP address, a public suffix, a single label).
    static func registrableDomain(_ host: String) -> String {
        guard let pointer = context.pointer else { return host }
        // libpsl answers with a pointer into the string it was given: read it while it lives.
        return host.withCString { name in
            psl_registrable_domain(pointer, name).map { String(cString: $0) } ?? host
        }
    }
}
