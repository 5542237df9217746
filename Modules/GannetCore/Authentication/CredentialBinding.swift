/// Where a credential the caller gave without a protection space may be answered, and in which
/// scheme (docs/auth-cookies-cache.md, "Authentication"). Pure logic, like ``Redirection``: the
/// engine asks, the tests and the `www-authenticate` fuzz target check.
///
/// ``SessionManager/credential`` and ``SessionTask/credential`` name no protection space, so
/// they are bound to what the caller did name: the origin of the request it made (scheme, host,
/// port) and ``SessionManager/credentialSchemes``. Three attacks are closed:
/// - the downgrade: a server (or anyone on the path) answering `WWW-Authenticate: Basic` to a
///   client that meant Digest or NTLM would read the password in clear (curl CVE-2022-27774's
///   class; curl's `--digest` and httpie's digest auth refuse it too);
/// - the redirect: another origin that a `3xx` led to asks for the credential and gets it
///   (curl CVE-2022-27774 and CVE-2022-27776, which also compared no port). The engine strips
///   `Authorization` across origins by the same ``Redirection/sameOrigin(_:_:)``;
/// - the proxy: a proxy's `407` (the environment's `http_proxy`, a network's intercepting proxy)
///   asks for the origin's credential and gets the password meant for the server. curl keeps
///   them apart (`--user` for the server, `--proxy-user` for the proxy); here a proxy is answered
///   by the credentials in its URL (``SessionConfiguration/Proxy/url(_:bypass:)``), a challenge
///   handler, or a credential stored for the proxy's protection space, never by these.
///
/// A credential from a challenge handler is the caller's decision for that challenge and is not
/// judged here; credentials from a `URLCredentialStorage` or remembered from a handler are keyed
/// by their whole ``ProtectionSpace`` (scheme, host, port, realm), so they are bound already.
struct CredentialBinding: Sendable, Hashable {
    /// The URL of the request the caller made; `nil` binds to nothing (no origin is admitted).
    let origin: URL?
    /// The schemes the credential may be sent in.
    let schemes: AuthenticationSchemes

    /// The challenge of a response that Gannet answers for: the strongest scheme it computes
    /// among those offered (NTLM, Digest, then Basic, as curl's `CURLAUTH_ANY` picks), looking
    /// first among `preferred`; the first challenge when Gannet computes none of them, so that a
    /// handler still sees it; `nil` for a response without a challenge. Of several challenges of
    /// one scheme, the server's first.
    static func challenge(
        in challenges: [AuthenticationChallengeHeader.Challenge],
        preferring preferred: AuthenticationSchemes
    ) -> AuthenticationChallengeHeader.Challenge? {
        func strongest(in allowed: AuthenticationSchemes) -> AuthenticationChallengeHeader.Challenge? {
            for scheme in AuthenticationSchemes.strongestFirst where allowed.contains(scheme) {
                let match = challenges.first { AuthenticationSchemes(challengeScheme: $0.scheme) == scheme }
                if let match { return match }
            }
            return nil
        }
        return strongest(in: preferred) ?? strongest(in: .any) ?? challenges.first
    }

    /// Whether the credential may answer `space`, the challenge of a response to `url`: its
    /// scheme is one of ``schemes`` and `url` has the caller's origin. A proxy's challenge
    /// (`407`) is never admitted: the credential is the origin's, not the proxy's.
    func admits(_ space: ProtectionSpace, at url: URL) -> Bool {
        guard let scheme = AuthenticationSchemes(challengeScheme: space.authenticationMethod), schemes.contains(scheme)
        else { return false }
        guard !space.isProxy, let origin else { return false }
        return Redirection.sameOrigin(origin, url)
    }
}
