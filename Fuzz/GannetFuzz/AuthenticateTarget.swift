import Foundation

@testable import GannetCore

extension FuzzTarget {
    /// `WWW-Authenticate` / `Proxy-Authenticate` parsing (AuthenticationChallengeHeader), then the
    /// scheme-binding decision on what it parsed (CredentialBinding, docs/auth-cookies-cache.md).
    /// Invariants: it never traps; every scheme is a non-empty token; parameter names are
    /// lower-case tokens; a field split at a line break parses as the two fields. The first byte
    /// picks the credential's schemes: the challenge chosen is one offered, never Basic while a
    /// stronger scheme Gannet computes is offered; a credential is admitted only in one of its
    /// schemes, never to another origin, and one for Digest or NTLM never answers Basic.
    static let wwwAuthenticate = FuzzTarget(name: "www-authenticate") { bytes in
        let text = String(decoding: bytes, as: UTF8.self)
        let challenges = AuthenticationChallengeHeader.parse([text])
        for challenge in challenges {
            require(!challenge.scheme.isEmpty && HTTPSyntax.isToken(challenge.scheme), "scheme \(challenge.scheme)")
            for name in challenge.parameters.keys {
                require(HTTPSyntax.isToken(name) && name == name.lowercased(), "parameter \(name.debugDescription)")
            }
        }
        let fields = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        _ = AuthenticationChallengeHeader.parse(fields)
        checkBinding(challenges, selector: bytes.first ?? 0)
    }

    private static func checkBinding(_ challenges: [AuthenticationChallengeHeader.Challenge], selector: UInt8) {
        let schemes = AuthenticationSchemes(rawValue: Int(selector) & AuthenticationSchemes.any.rawValue)
        let offered = challenges.compactMap { AuthenticationSchemes(challengeScheme: $0.scheme) }
        guard let chosen = CredentialBinding.challenge(in: challenges, preferring: schemes) else {
            require(challenges.isEmpty, "no challenge chosen of \(challenges.count)")
            return
        }
        require(challenges.contains(chosen), "chosen \(chosen.scheme) was not offered")
        let chosenScheme = AuthenticationSchemes(challengeScheme: chosen.scheme)
        if !offered.isEmpty { require(chosenScheme != nil, "\(chosen.scheme) chosen over one Gannet computes") }
        if let chosenScheme {
            // The strongest of those offered in the credential's schemes, else of all offered.
            let preferred = offered.filter { schemes.contains($0) }
            let pool = preferred.isEmpty ? offered : preferred
            let order = AuthenticationSchemes.strongestFirst
            let rank = { (scheme: AuthenticationSchemes) in order.firstIndex(of: scheme) ?? 0 }
            require(pool.contains(chosenScheme), "\(chosen.scheme) is not among the preferred")
            require(pool.allSatisfy { rank($0) >= rank(chosenScheme) }, "weaker than offered: \(chosen.scheme)")
        }
        let origin = URL(string: "http://example.com/")!
        let binding = CredentialBinding(origin: origin, schemes: schemes)
        for proxy in [false, true] {
            let space = ProtectionSpace(
                host: "example.com",
                port: 80,
                protocol: "http",
                realm: chosen.parameters["realm"],
                authenticationMethod: chosen.scheme,
                isProxy: proxy
            )
            let admitted = binding.admits(space, at: origin)
            // The origin's credential never answers a proxy's 407 (docs/auth-cookies-cache.md).
            let expected = !proxy && (chosenScheme.map { schemes.contains($0) } ?? false)
            require(admitted == expected, "admitted \(chosen.scheme), proxy: \(proxy)")
            if !schemes.contains(.basic) { require(!(admitted && chosenScheme == .basic), "Basic downgrade") }
            if !proxy {
                for other in ["http://example.com:8080/", "https://example.com/", "http://example.org/"] {
                    require(!binding.admits(space, at: URL(string: other)!), "admitted at \(other)")
                }
            }
        }
    }
}
