#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

extension SessionManager {
    /// Receives every `401` (and a proxy's `407`) with a challenge, AFNetworking 4's
    /// `authenticationChallengeHandler` for HTTP authentication (docs/auth-cookies-cache.md).
    ///
    /// It is asked after the response arrived, never before: the first request goes without
    /// credentials. Its answer decides:
    /// - ``AuthenticationDisposition/useCredential(_:)``: the same request is sent again with
    ///   the credential; libcurl computes Basic or Digest. `.forSession` and `.permanent`
    ///   credentials are remembered by the manager for default handling of later challenges of
    ///   the same protection space.
    /// - ``AuthenticationDisposition/performDefaultHandling``: on the first attempt, ``credential``,
    ///   else one remembered for the space; otherwise the response reaches the caller.
    /// - ``AuthenticationDisposition/rejectProtectionSpace``: the response reaches the caller.
    /// - ``AuthenticationDisposition/cancelAuthenticationChallenge``: the task fails with
    ///   `URLError.userCancelledAuthentication`.
    /// - ``AuthenticationDisposition/fail(_:)``: the task fails with that error.
    ///
    /// A credential that is refused again counts up ``AuthenticationChallenge/previousFailureCount``;
    /// after three refusals for one space the response reaches the caller whatever the
    /// handler says. Credentials go to the challenged origin only: a redirect afterwards sends
    /// none. A streamed body cannot be sent again: the task fails instead. Called on the
    /// engine thread; return quickly.
    public func setAuthenticationChallengeHandler(
        _ block: (@Sendable (SessionManager, SessionTask, AuthenticationChallenge) -> AuthenticationDisposition)?
    ) {
        hooks.withLock { $0.authenticationChallenge = block }
    }

    /// The credential default handling answers a first challenge with (AFNetworking 2's
    /// `credential`): with no challenge handler, a `401` or `407` is retried with it once.
    public var credential: URLCredential? {
        get { hooks.withLock { $0.credential } }
        set { hooks.withLock { $0.credential = newValue } }
    }

    /// The credential default handling uses for `space` on attempt `failures`.
    func defaultCredential(for space: ProtectionSpace, failures: Int) -> URLCredential? {
        guard failures == 0 else { return nil }
        return hooks.withLock { $0.credential ?? $0.rememberedCredentials[space] }
    }

    /// Keeps a handler's `.forSession` or `.permanent` credential for default handling.
    func remember(_ credential: URLCredential, for space: ProtectionSpace) {
        guard credential.persistence == .forSession || credential.persistence == .permanent else { return }
        hooks.withLock { $0.rememberedCredentials[space] = credential }
    }
}
