/// Whether a final `401` or `407` is answered with a credential, and how often: the choice of
/// challenge (CredentialBinding), its protection space, and the count of refusals per space
/// (docs/auth-cookies-cache.md, "Authentication"). A value with no I/O: the task side is asked
/// for the credential through the closure the transfer gives ``decide(_:url:bodyCanBeSentAgain:failureResponse:ask:)``,
/// and libcurl computes the answer from the hop's credential (``HopOptions``).
struct AuthenticationRetries {
    /// Refusals of one protection space after which the response goes to the caller.
    static let maximumFailures = 3

    /// Which origin and schemes the caller's credential is for (the URL the caller asked for,
    /// and the task's or manager's `credentialSchemes`).
    let binding: CredentialBinding
    /// The session's proxy, whose protection space a `407`'s challenge is.
    let proxy: SessionConfiguration.Proxy
    /// Credentials refused so far, by protection space.
    private(set) var failures: [ProtectionSpace: Int] = [:]

    init(binding: CredentialBinding, proxy: SessionConfiguration.Proxy) {
        self.binding = binding
        self.proxy = proxy
    }

    /// A challenge to put to the task side.
    struct Question {
        let challenge: AuthenticationChallenge
        /// A credential not scoped to an origin may answer it (``CredentialBinding/admits(_:at:)``).
        let unscopedAdmitted: Bool
        fileprivate let scheme: AuthenticationSchemes?
        fileprivate let isProxy: Bool
    }

    /// What the transfer does with the challenge's answer.
    enum Outcome {
        case deliver
        case retry(HopCredential)
        case fail(any Error)
    }

    /// The challenge in `head` (a final `401` or `407` of a hop to `url`) to put to the task
    /// side, or `nil` when it offers no scheme Gannet answers; a `407`'s protection space is the
    /// proxy's.
    func question(for head: ResponseHead, url: URL, failureResponse: () -> HTTPURLResponse?) -> Question? {
        let isProxy = head.statusCode == 407
        let field = isProxy ? "proxy-authenticate" : "www-authenticate"
        let challenges = AuthenticationChallengeHeader.parse(
            head.fields.values(named: field)
        )
        // The strongest scheme offered, those the caller's credential is for first
        // (CredentialBinding). Negotiate (SPNEGO) is not among those Gannet computes: libcurl
        // offers it through GSS-API, but no server here speaks it to prove it.
        guard let chosen = CredentialBinding.challenge(in: challenges, preferring: binding.schemes) else {
            return nil
        }
        let space = Self.protectionSpace(for: chosen, url: url, proxy: isProxy ? proxy : nil)
        let challenge = AuthenticationChallenge(
            protectionSpace: space,
            challenges: challenges,
            previousFailureCount: failures[space, default: 0],
            failureResponse: failureResponse()
        )
        return Question(
            challenge: challenge,
            unscopedAdmitted: binding.admits(space, at: url),
            scheme: AuthenticationSchemes(challengeScheme: chosen.scheme),
            isProxy: isProxy
        )
    }

    /// What follows a final `401` or `407` `head` of a hop to `url`: the challenge
    /// (``question(for:url:failureResponse:)``) is put to the task side through
    /// `ask`, and its credential answered (``answer(_:with:bodyCanBeSentAgain:url:)``); the
    /// response when nothing Gannet answers is offered, and `ask`'s error when it throws.
    mutating func decide(
        _ head: ResponseHead,
        url: URL,
        bodyCanBeSentAgain: Bool,
        failureResponse: () -> HTTPURLResponse?,
        ask: (Question) throws -> URLCredential?
    ) -> Outcome {
        guard let question = question(for: head, url: url, failureResponse: failureResponse) else { return .deliver }
        do {
            return answer(question, with: try ask(question), bodyCanBeSentAgain: bodyCanBeSentAgain, url: url)
        } catch {
            return .fail(error)
        }
    }

    /// What follows the task side's `credential` for `question`: a retry with it (counted as
    /// a failure of its space until a response says otherwise), the response, or an error
    /// when the body cannot be sent again.
    mutating func answer(
        _ question: Question,
        with credential: URLCredential?,
        bodyCanBeSentAgain: Bool,
        url: URL
    ) -> Outcome {
        let space = question.challenge.protectionSpace
        let count = failures[space, default: 0]
        guard let credential, let user = credential.user, let password = credential.password,
            let answerable = question.scheme, count < Self.maximumFailures
        else { return .deliver }
        guard bodyCanBeSentAgain else {
            let error = GannetError(
                .requestRetryFailed,
                "The request's body is a stream, which cannot be sent again with credentials without taskNeedNewBodyStream",
                failingURL: url
            )
            return .fail(TransportError.urlError(gannet: error, url: url))
        }
        failures[space] = count + 1
        let scheme: HopCredential.Scheme
        switch answerable {
        case .digest: scheme = .digest
        case .ntlm: scheme = .ntlm
        default: scheme = .basic
        }
        return .retry(HopCredential(user: user, password: password, scheme: scheme, proxy: question.isProxy))
    }

    /// The protection space of `challenge`: the proxy's for a `407` (`proxy` set), else `url`'s.
    private static func protectionSpace(
        for challenge: AuthenticationChallengeHeader.Challenge,
        url: URL,
        proxy: SessionConfiguration.Proxy?
    ) -> ProtectionSpace {
        var target = url
        if case .url(let proxyURL, _) = proxy { target = proxyURL }
        let scheme = target.scheme?.lowercased() ?? "http"
        return ProtectionSpace(
            host: target.host ?? "",
            port: target.port ?? (scheme == "https" ? 443 : 80),
            protocol: scheme,
            realm: challenge.parameters["realm"],
            authenticationMethod: challenge.scheme,
            isProxy: proxy != nil
        )
    }
}
