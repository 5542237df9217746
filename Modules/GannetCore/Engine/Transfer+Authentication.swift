internal import CCurl

/// HTTP authentication challenges (docs/auth-cookies-cache.md, "Authentication"): a `401` or
/// `407` is offered to the manager's challenge handler (or default handling), and a
/// credential makes the transfer send the same request again with libcurl computing Basic,
/// Digest or NTLM. Engine thread.
extension Transfer {
    /// What a hop sends credentials with: set for the retry a challenge answer asked for, and
    /// for no other hop (a redirect after it sends none).
    struct HopCredential: Equatable {
        enum Scheme { case basic, digest, ntlm }
        let user: String
        let password: String
        let scheme: Scheme
        let proxy: Bool

        /// `CURLAUTH_BASIC`, `CURLAUTH_DIGEST` and `CURLAUTH_NTLM` (macros with casts, which do
        /// not import).
        var curlMask: Int {
            switch scheme {
            case .basic: return 1 << 0
            case .digest: return 1 << 1
            case .ntlm: return 1 << 3
            }
        }

        /// Whether libcurl answers a `401` of its own within the hop before the response: a
        /// Digest probe sent without credentials, or NTLM's challenge to its negotiate message.
        var hasIntermediateChallenge: Bool { scheme != .basic }
    }

    enum AuthenticationOutcome {
        case deliver
        case retry(HopCredential)
        case fail(any Error)
    }

    /// Refusals of one protection space after which the response goes to the caller.
    static let maximumAuthenticationFailures = 3

    /// Decides about a final `401` or `407` head.
    func decideAuthentication(_ head: ResponseHead, url: URL) -> AuthenticationOutcome {
        let proxy = head.statusCode == 407
        let field = proxy ? "proxy-authenticate" : "www-authenticate"
        let challenges = AuthenticationChallengeHeader.parse(
            head.fields.filter { ASCII.equalsIgnoringCase($0.name, field) }.map(\.value)
        )
        // The strongest scheme offered, those the caller's credential is for first
        // (CredentialBinding). Negotiate (SPNEGO) is not among those Gannet computes: libcurl
        // offers it through GSS-API, but no server here speaks it to prove it.
        let binding = CredentialBinding(origin: callerURL, schemes: hooks.credentialSchemes)
        guard let chosen = CredentialBinding.challenge(in: challenges, preferring: binding.schemes) else {
            return .deliver
        }
        let answerable = AuthenticationSchemes(challengeScheme: chosen.scheme)
        let space = protectionSpace(for: chosen, url: url, proxy: proxy)
        let failures = authenticationFailures[space, default: 0]
        let challenge = AuthenticationChallenge(
            protectionSpace: space,
            challenges: challenges,
            previousFailureCount: failures,
            failureResponse: materializedResponse()
        )
        // The handlers and the stored credentials are the task side's (TaskChannel).
        let credential: URLCredential?
        do {
            credential = try observer.transferCredential(
                for: challenge,
                unscopedAdmitted: binding.admits(space, at: url),
                url: url
            )
        } catch {
            return .fail(error)
        }
        guard let credential, let user = credential.user, let password = credential.password, answerable != nil,
            failures < Self.maximumAuthenticationFailures
        else { return .deliver }
        guard bodyCanBeSentAgain else {
            let error = GannetError(
                .requestRetryFailed,
                "The request's body is a stream, which cannot be sent again with credentials without taskNeedNewBodyStream",
                failingURL: url
            )
            return .fail(TransportError.urlError(gannet: error, url: url))
        }
        authenticationFailures[space] = failures + 1
        let scheme: HopCredential.Scheme
        switch answerable {
        case .digest: scheme = .digest
        case .ntlm: scheme = .ntlm
        default: scheme = .basic
        }
        return .retry(HopCredential(user: user, password: password, scheme: scheme, proxy: proxy))
    }

    private func protectionSpace(
        for challenge: AuthenticationChallengeHeader.Challenge,
        url: URL,
        proxy: Bool
    ) -> ProtectionSpace {
        var target = url
        if proxy, case .url(let proxyURL, _) = configuration.proxy { target = proxyURL }
        let scheme = target.scheme?.lowercased() ?? "http"
        return ProtectionSpace(
            host: target.host ?? "",
            port: target.port ?? (scheme == "https" ? 443 : 80),
            protocol: scheme,
            realm: challenge.parameters["realm"],
            authenticationMethod: challenge.scheme,
            isProxy: proxy
        )
    }

    /// Sets (or clears) this hop's credentials. Digest is answered by libcurl after a probe
    /// without credentials, NTLM after the server's challenge to libcurl's negotiate message:
    /// the header callback skips that `401` (``Hop/awaitsAuthenticationProbe``). NTLM needs its
    /// three messages on one connection, which libcurl keeps for the hop.
    func configureAuthentication(_ easy: EasyHandle) {
        let credential = machine.hop.credential
        let basic = 1 << 0
        easy.set(CURLOPT_HTTPAUTH, credential.map { $0.proxy ? basic : $0.curlMask } ?? basic)
        easy.set(CURLOPT_USERNAME, credential.flatMap { $0.proxy ? nil : $0.user })
        easy.set(CURLOPT_PASSWORD, credential.flatMap { $0.proxy ? nil : $0.password })
        easy.set(CURLOPT_PROXYAUTH, credential.map { $0.proxy ? $0.curlMask : basic } ?? basic)
        easy.set(CURLOPT_PROXYUSERNAME, credential.flatMap { $0.proxy ? $0.user : nil })
        easy.set(CURLOPT_PROXYPASSWORD, credential.flatMap { $0.proxy ? $0.password : nil })
        machine.hop.awaitsAuthenticationProbe = credential?.hasIntermediateChallenge == true
    }
}
