@testable import GannetCore

extension FuzzTarget {
    /// `WWW-Authenticate` / `Proxy-Authenticate` parsing (AuthenticationChallengeHeader).
    /// Invariants: it never traps; every scheme is a non-empty token; parameter names are
    /// lower-case tokens; a field split at a line break parses as the two fields.
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
    }
}
