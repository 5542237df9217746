#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Gannet's ``ProtectionSpace`` in a `URLCredentialStorage` (``SessionConfiguration/urlCredentialStorage``).
///
/// swift-corelibs-foundation's `URLProtectionSpace` compares by identity: two spaces built
/// with the same host, port, protocol, realm and method are not equal, so
/// `defaultCredential(for:)` finds nothing for a space built anew. Lookups therefore go
/// through the storage's own keys, compared field by field (docs/auth-cookies-cache.md).
extension ProtectionSpace {
    /// Foundation's constant for this space's scheme (`NSURLAuthenticationMethodHTTPBasic`, …).
    var foundationAuthenticationMethod: String {
        switch authenticationMethod.lowercased() {
        case "basic": return NSURLAuthenticationMethodHTTPBasic
        case "digest": return NSURLAuthenticationMethodHTTPDigest
        case "ntlm": return NSURLAuthenticationMethodNTLM
        case "negotiate": return NSURLAuthenticationMethodNegotiate
        default: return NSURLAuthenticationMethodDefault
        }
    }

    /// This space as Foundation spells it.
    public var urlProtectionSpace: URLProtectionSpace {
        if isProxy {
            return URLProtectionSpace(
                proxyHost: host,
                port: port,
                type: `protocol` == "https" ? NSURLProtectionSpaceHTTPSProxy : NSURLProtectionSpaceHTTPProxy,
                realm: realm,
                authenticationMethod: foundationAuthenticationMethod
            )
        }
        return URLProtectionSpace(
            host: host,
            port: port,
            protocol: `protocol`,
            realm: realm,
            authenticationMethod: foundationAuthenticationMethod
        )
    }

    /// Whether `space` names this space: same host (case-insensitively), port, protocol (or
    /// proxy type), realm and method.
    func matches(_ space: URLProtectionSpace) -> Bool {
        let mine = urlProtectionSpace
        return space.host.lowercased() == host.lowercased() && space.port == port
            && space.isProxy() == isProxy && space.protocol == mine.protocol && space.proxyType == mine.proxyType
            && space.realm == realm && space.authenticationMethod == mine.authenticationMethod
    }

    /// The storage's own key for this space, if it holds one.
    private func key(in storage: URLCredentialStorage) -> URLProtectionSpace? {
        storage.allCredentials.keys.first { matches($0) }
    }

    /// The storage's default credential for this space.
    func defaultCredential(in storage: URLCredentialStorage) -> URLCredential? {
        key(in: storage).flatMap { storage.defaultCredential(for: $0) }
    }

    /// Stores `credential` as this space's default.
    func store(_ credential: URLCredential, in storage: URLCredentialStorage) {
        storage.setDefaultCredential(credential, for: key(in: storage) ?? urlProtectionSpace)
    }
}
