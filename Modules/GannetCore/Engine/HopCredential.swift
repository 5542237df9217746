/// What a hop sends credentials with: set for the retry a challenge answer asked for
/// (``AuthenticationRetries``), and for no other hop (a redirect after it sends none). libcurl
/// computes Basic, Digest or NTLM from it (``HopOptions/setCredential(_:_:)``).
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
