/// The request a redirect proposes, by the rules browsers and RFC 9110 follow, with the
/// protections Gannet adds. Pure logic: the engine asks, the tests check.
/// https://www.rfc-editor.org/rfc/rfc9110.html#name-redirection-3xx
struct Redirection {
    /// Response statuses that redirect when they carry a `Location`.
    static func isRedirect(_ status: Int) -> Bool {
        status == 301 || status == 302 || status == 303 || status == 307 || status == 308
    }

    /// Headers that carry credentials; they never cross to another origin.
    static let credentialHeaders: Set<String> = ["authorization", "cookie", "proxy-authorization"]

    /// Body-describing headers dropped when a redirect turns the request into a GET.
    static let bodyHeaders: Set<String> = ["content-type", "content-length", "content-encoding", "transfer-encoding"]

    enum Outcome {
        case follow(URLRequest)
        /// Not a redirect Gannet follows (no Location, or a status that is not followed).
        case deliver
        case refuse(GannetError)
    }

    /// Computes the next request for `response` to `request`.
    /// - Parameter bodyIsRepeatable: whether a 307/308 can send the body again.
    static func next(
        after request: URLRequest,
        response status: Int,
        location: String?,
        policy: SessionConfiguration.RedirectPolicy,
        bodyIsRepeatable: Bool
    ) -> Outcome {
        guard isRedirect(status), let location, policy.maximumRedirects > 0, let current = request.url else {
            return .deliver
        }
        guard let target = URL(string: location, relativeTo: current)?.absoluteURL else {
            return .refuse(
                GannetError(
                    .invalidRequest,
                    "The redirect location \(location.prefix(200).debugDescription) is not a valid URL",
                    failingURL: current
                )
            )
        }
        guard let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            return .refuse(
                GannetError(
                    .unsupportedScheme,
                    "Refused to follow a redirect to a \(target.scheme ?? "schemeless") URL; only http and https are followed",
                    failingURL: current
                )
            )
        }
        if current.scheme?.lowercased() == "https" && scheme == "http" && !policy.allowsHTTPSToHTTP {
            return .refuse(
                GannetError(.insecureRedirect, "Refused to follow a redirect from https to http", failingURL: current)
            )
        }

        var next = request
        next.url = target
        let method = (request.httpMethod ?? "GET").uppercased()
        // 301/302 turn POST into GET as browsers do; 303 turns everything but HEAD into GET.
        let becomesGet = (status == 303 && method != "HEAD") || ((status == 301 || status == 302) && method == "POST")
        if becomesGet {
            next.httpMethod = "GET"
            next.httpBody = nil
            next.httpBodyStream = nil
            for name in bodyHeaders { next.setValue(nil, forHTTPHeaderField: name) }
        } else if (request.httpBody != nil || request.httpBodyStream != nil) && !bodyIsRepeatable {
            // A 307/308 must resend the body; a one-shot stream cannot be replayed.
            return .deliver
        }
        if !Self.sameOrigin(current, target) {
            for name in credentialHeaders { next.setValue(nil, forHTTPHeaderField: name) }
            if var components = URLComponents(url: target, resolvingAgainstBaseURL: false),
                components.user != nil || components.password != nil
            {
                components.user = nil
                components.password = nil
                next.url = components.url ?? target
            }
        }
        return .follow(next)
    }

    /// Scheme, host and port, with default ports made explicit (curl CVE-2022-27776 was a port
    /// that was not compared).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : 80)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(a) == origin(b)
    }
}
