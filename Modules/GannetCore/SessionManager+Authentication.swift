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
    ///   the credential, in the scheme of the challenge's protection space; libcurl computes
    ///   Basic, Digest or NTLM. `.forSession` and `.permanent`
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
    /// none. The handler decides for any challenge it is asked about, another origin's after a
    /// redirect included; default handling sends ``credential`` and a task's credential only to
    /// the caller's origin, in ``credentialSchemes`` (docs/auth-cookies-cache.md, "Where a
    /// credential may go"). A streamed body cannot be sent again: the task fails instead. Called on the
    /// engine thread; return quickly.
    public func setAuthenticationChallengeHandler(
        _ block: (@Sendable (SessionManager, SessionTask, AuthenticationChallenge) -> AuthenticationDisposition)?
    ) {
        hooks.withLock { $0.authenticationChallenge = block }
    }

    /// The credential default handling answers a first challenge with (AFNetworking 2's
    /// `credential`): with no challenge handler, a `401` or `407` is retried with it once. It
    /// names no protection space, so it goes only to the origin of the request the caller made,
    /// in ``credentialSchemes``: never to another origin a redirect led to, never to a proxy's
    /// `407`, never as Basic when `.basic` is not among them.
    public var credential: URLCredential? {
        get { hooks.withLock { $0.credential } }
        set { hooks.withLock { $0.credential = newValue } }
    }

    /// The schemes ``credential`` and a task's ``SessionTask/credential`` may be sent in:
    /// ``AuthenticationSchemes/any`` by default (the strongest the server offers). Set
    /// `.digest` or `.ntlm` and a server that offers only Basic gets nothing: the `401`
    /// reaches the caller (curl's `--digest`, httpie's `--auth-type digest`). Either way these
    /// credentials go only to the origin of the request the caller made (scheme, host, port),
    /// never to another origin a redirect leads to, nor to a proxy (docs/auth-cookies-cache.md).
    /// A task reads it when it starts.
    public var credentialSchemes: AuthenticationSchemes {
        get { hooks.withLock { $0.credentialSchemes } }
        set { hooks.withLock { $0.credentialSchemes = newValue } }
    }

    /// Whether default handling may answer a challenge with the configuration's
    /// ``SessionConfiguration/urlCredentialStorage`` (AFURLConnectionOperation's
    /// `shouldUseCredentialStorage`). `true` by default; `false` leaves a challenge that no
    /// `credential` answers to the caller.
    public var shouldUseCredentialStorage: Bool {
        get { hooks.withLock { $0.shouldUseCredentialStorage } }
        set { hooks.withLock { $0.shouldUseCredentialStorage = newValue } }
    }

    /// The credential default handling answers `space` with after `failures` refusals, each
    /// candidate once, in this order: the task's ``SessionTask/credential`` and the manager's
    /// ``credential`` (when `unscopedAdmitted`: ``CredentialBinding`` admitted them for the
    /// space), one a handler gave for the space before, then (when
    /// ``shouldUseCredentialStorage`` holds) the storage's default for it. `nil` when they are
    /// spent: the response reaches the caller.
    func defaultCredential(
        for space: ProtectionSpace,
        failures: Int,
        taskCredential: URLCredential?,
        unscopedAdmitted: Bool
    ) -> URLCredential? {
        let (own, remembered, usesStorage) = hooks.withLock {
            ($0.credential, $0.rememberedCredentials[space], $0.shouldUseCredentialStorage)
        }
        let stored = usesStorage ? configuration.urlCredentialStorage.flatMap { space.defaultCredential(in: $0) } : nil
        let unscoped = unscopedAdmitted ? [taskCredential, own] : []
        var candidates: [URLCredential] = []
        for candidate in unscoped + [remembered, stored] {
            guard let candidate,
                !candidates.contains(where: { $0.user == candidate.user && $0.password == candidate.password })
            else { continue }
            candidates.append(candidate)
        }
        return failures < candidates.count ? candidates[failures] : nil
    }

    /// Keeps a handler's `.forSession` or `.permanent` credential for default handling, and a
    /// `.permanent` one in the configuration's credential storage too.
    func remember(_ credential: URLCredential, for space: ProtectionSpace) {
        guard credential.persistence == .forSession || credential.persistence == .permanent else { return }
        hooks.withLock { $0.rememberedCredentials[space] = credential }
        if credential.persistence == .permanent, let storage = configuration.urlCredentialStorage {
            space.store(credential, in: storage)
        }
    }
}

extension SessionTask {
    /// The credential default handling answers this task's first challenge with, before the
    /// manager's ``SessionManager/credential`` (AFURLConnectionOperation's `credential`). Set it
    /// before ``resume()``. Bound like the manager's: the origin of this task's request, in
    /// ``SessionManager/credentialSchemes``.
    public var credential: URLCredential? {
        get { storage.withLock { $0.credential } }
        set { storage.withLock { $0.credential = newValue } }
    }

    /// This task's own authentication challenge handler (NSURLSession's task-level challenge,
    /// AFURLConnectionOperation's `setWillSendRequestForAuthenticationChallengeBlock:`): when
    /// set, it answers this task's challenges instead of the manager's
    /// ``SessionManager/setAuthenticationChallengeHandler(_:)``, with the same answers and
    /// rules. Set it before ``resume()``; called on the engine thread.
    public func setAuthenticationChallengeHandler(
        _ block: (@Sendable (SessionManager, SessionTask, AuthenticationChallenge) -> AuthenticationDisposition)?
    ) {
        storage.withLock { $0.authenticationChallenge = block }
    }

    var authenticationChallengeHandler: SessionHooks.AuthenticationChallengeHandler? {
        storage.withLock { $0.authenticationChallenge }
    }
}
