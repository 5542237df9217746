import Foundation

/// The fault server's credential-recording route (Tests/Servers/auth_routes.py): what a client
/// sent as `Authorization`, as the server received it. Give every test a key of its own.
extension FaultRoute {
    /// `401` with `WWW-Authenticate: challenge` every time; the request's `Authorization` header
    /// (or its absence) is recorded under `key`.
    public static func authRecord(_ key: String, challenge: String = "Basic realm=\"fault\"") -> FaultRoute {
        var allowed = CharacterSet()
        allowed.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        let value = challenge.addingPercentEncoding(withAllowedCharacters: allowed) ?? challenge
        return FaultRoute("/auth-record/\(key)?challenge=\(value)")
    }
}

extension TestServers {
    /// The `Authorization` headers ``FaultRoute/authRecord(_:challenge:)`` received for `key`, in
    /// order; `""` for a request that carried none.
    public func authorizationsReceived(_ key: String) throws -> [String] {
        let body = try LoopbackHTTP.get(url(FaultRoute("/auth-record/\(key)/log")))
        guard let list = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String] else {
            throw TestServerError("/auth-record/\(key)/log is not a JSON list of strings: \(body)")
        }
        return list
    }
}
