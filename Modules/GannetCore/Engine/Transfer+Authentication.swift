internal import CCurl

/// HTTP authentication challenges (docs/auth-cookies-cache.md, "Authentication"): a `401` or
/// `407` is offered to the manager's challenge handler (or default handling), and a
/// credential makes the transfer send the same request again with libcurl computing Basic,
/// Digest or NTLM. What is answered and how often is ``AuthenticationRetries``'; this file
/// asks the task side and sets the hop's credential on the handle. Engine thread.
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

    /// Decides about a final `401` or `407` head: the task side answers the challenge
    /// ``AuthenticationRetries`` finds, and it decides what follows.
    func decideAuthentication(_ head: ResponseHead, url: URL) -> AuthenticationRetries.Outcome {
        let binding = CredentialBinding(origin: callerURL, schemes: hooks.credentialSchemes)
        guard
            let question = authentication.question(
                for: head,
                url: url,
                binding: binding,
                proxy: configuration.proxy,
                failureResponse: { materializedResponse() }
            )
        else { return .deliver }
        // The handlers and the stored credentials are the task side's (TaskChannel).
        let credential: URLCredential?
        do {
            credential = try observer.transferCredential(
                for: question.challenge,
                unscopedAdmitted: question.unscopedAdmitted,
                url: url
            )
        } catch {
            return .fail(error)
        }
        return authentication.answer(question, with: credential, bodyCanBeSentAgain: bodyCanBeSentAgain, url: url)
    }
}
