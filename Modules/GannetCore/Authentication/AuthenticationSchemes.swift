/// The HTTP authentication schemes a credential may be sent in (docs/auth-cookies-cache.md,
/// "Authentication"): what curl's `CURLOPT_HTTPAUTH` mask says for `--basic`, `--digest` and
/// `--ntlm`, and what httpie's `--auth-type` chooses.
///
/// A credential given for Digest or NTLM is never sent as Basic, whatever the server offers:
/// Basic carries the password itself, base64-encoded in clear (curl CVE-2022-27774's class).
///
/// ```swift
/// manager.credential = URLCredential(user: "u", password: "p", persistence: .none)
/// manager.credentialSchemes = .digest     // a server that offers only Basic gets nothing
/// ```
public struct AuthenticationSchemes: OptionSet, Sendable, Hashable {
    public let rawValue: Int

    /// Creates a set from its raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Basic (RFC 7617): the password base64-encoded, readable by anyone who sees the request.
    public static let basic = AuthenticationSchemes(rawValue: 1 << 0)
    /// Digest (RFC 7616), computed by libcurl from the server's nonce.
    public static let digest = AuthenticationSchemes(rawValue: 1 << 1)
    /// NTLM, computed by libcurl over one connection.
    public static let ntlm = AuthenticationSchemes(rawValue: 1 << 2)
    /// Every scheme Gannet answers; the strongest the server offers is chosen (curl's
    /// `CURLAUTH_ANY`): NTLM, then Digest, then Basic.
    public static let any: AuthenticationSchemes = [.basic, .digest, .ntlm]

    /// The scheme a challenge names (`Basic`, `digest`…, case-insensitively); `nil` for one
    /// Gannet does not answer (`Negotiate`, `Bearer`…).
    public init?(challengeScheme name: String) {
        switch name.lowercased() {
        case "basic": self = .basic
        case "digest": self = .digest
        case "ntlm": self = .ntlm
        default: return nil
        }
    }

    /// The schemes Gannet answers, strongest first (curl's order in `pickoneauth`).
    static let strongestFirst: [AuthenticationSchemes] = [.ntlm, .digest, .basic]
}
