/// What a complete response head means for its hop, decided from the head and the hop alone:
/// libcurl's own authentication probe, a challenge to answer, a redirect to follow (within the
/// limit), or the response; and, when the hop ends cleanly, whether its body may have been cut
/// short. A value-free namespace with no I/O, so each rule is tested step by step
/// (HeadPolicyTests), like ``Redirection``. The hooks and handlers that take part (the redirect
/// hook, the challenge handlers) are asked by ``Transfer`` after the policy said which.
enum HeadPolicy {
    /// The first question about a head.
    enum Step: Equatable {
        /// The `401` libcurl answers itself within the hop (a Digest probe sent without
        /// credentials, NTLM's challenge to its negotiate message): not the response.
        case authenticationProbe
        /// A `401` (`proxy == false`) or `407` to offer to the challenge handler.
        case challenge(proxy: Bool)
        /// A redirect status: ``HeadPolicy/redirect(after:head:policy:bodyIsRepeatable:redirectsSoFar:)``
        /// decides whether it is followed.
        case redirect
        /// The response.
        case deliver
    }

    static func step(for head: ResponseHead, hop: Hop) -> Step {
        if head.statusCode == 401 || head.statusCode == 407 {
            return hop.awaitsAuthenticationProbe ? .authenticationProbe : .challenge(proxy: head.statusCode == 407)
        }
        return Redirection.isRedirect(head.statusCode) ? .redirect : .deliver
    }

    /// Whether a redirect `head` answering `request` is followed: Gannet's rules
    /// (``Redirection/next(after:response:location:policy:bodyIsRepeatable:)``), then the limit
    /// of `policy`, of which `redirectsSoFar` are spent, then the redirect hook (`hook`, given
    /// the request Gannet would send; ``redirect(approvedByHook:)``) when there is one.
    static func redirect(
        after request: URLRequest,
        head: ResponseHead,
        policy: SessionConfiguration.RedirectPolicy,
        bodyIsRepeatable: Bool,
        redirectsSoFar: Int,
        hook: ((URLRequest) -> URLRequest?)? = nil
    ) -> Redirection.Outcome {
        let outcome = Redirection.next(
            after: request,
            response: head.statusCode,
            location: head.value("Location"),
            policy: policy,
            bodyIsRepeatable: bodyIsRepeatable
        )
        guard case .follow(let proposed) = outcome else { return outcome }
        guard redirectsSoFar >= policy.maximumRedirects else {
            return hook.map { redirect(approvedByHook: $0(proposed)) } ?? outcome
        }
        return .refuse(
            GannetError(
                .tooManyRedirects,
                "Stopped after \(redirectsSoFar) redirects (the limit is \(policy.maximumRedirects))",
                failingURL: request.url
            )
        )
    }

    /// What follows a redirect Gannet would follow, once the redirect hook answered it with
    /// `next`: `nil` delivers the redirect as the response; a request whose URL cannot be sent
    /// (another scheme, control characters) is refused, since the hook's request is checked as
    /// Gannet's own targets are; any other is followed.
    static func redirect(approvedByHook next: URLRequest?) -> Redirection.Outcome {
        guard let next else { return .deliver }
        if let target = next.url, (try? RequestValidation.validate(url: target)) == nil {
            return .refuse(
                GannetError(
                    .unsupportedScheme,
                    "The redirect hook returned a request that cannot be sent",
                    failingURL: target
                )
            )
        }
        return .follow(next)
    }

    /// Why a body that ended cleanly may still be cut short, or `nil`. A body that only the end
    /// of a TLS connection delimits (HTTP/1.x without `Content-Length` or `Transfer-Encoding`)
    /// is complete only if the server ended TLS with close_notify; a bare TCP close may be an
    /// attacker's cut. libcurl 7.88 takes one for a clean end (docs/engine.md, "TLS"), so the
    /// engine checks.
    static func truncation(of hop: Hop) -> GannetError? {
        let request = hop.request
        guard hop.usesTLS, !hop.closeNotifyArrived, let head = hop.head,
            head.httpVersion.hasPrefix("HTTP/1"), (request.httpMethod ?? "GET").uppercased() != "HEAD",
            head.statusCode >= 200, head.statusCode != 204, head.statusCode != 304
        else { return nil }
        let framed = head.fields.contains(named: "Content-Length") || head.fields.contains(named: "Transfer-Encoding")
        guard !framed else { return nil }
        return GannetError(
            .transport,
            "The TLS connection closed without close_notify before the end of a body delimited by the close: it may be truncated",
            failingURL: request.url
        )
    }
}
