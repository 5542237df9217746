/// Hides credentials in what Gannet writes for people to read: logs, `cURLDescription()`.
/// Values are replaced whole by ``placeholder``, never shortened, so no prefix of a secret leaks.
enum CredentialRedaction {
    static let placeholder = "***"

    /// Request and response headers whose values are credentials, lowercased.
    static let headers: Set<String> = ["authorization", "cookie", "proxy-authorization", "set-cookie"]

    static func isCredential(header name: String) -> Bool {
        headers.contains(name.lowercased())
    }

    /// The header's value, or the placeholder for a credential header.
    static func value(_ value: String, ofHeader name: String) -> String {
        isCredential(header: name) ? placeholder : value
    }

    /// The URL as a string, with the password of `user:password@` replaced by the placeholder.
    static func url(_ url: URL) -> String {
        guard url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else {
            return url.absoluteString
        }
        components.percentEncodedPassword = placeholder
        return components.string ?? URL.removingCredentials(url).absoluteString
    }

    /// `text` with the password of every `scheme://user:password@` in it replaced, for free text
    /// such as error descriptions that may quote a URL.
    static func text(_ text: String) -> String {
        guard text.contains("@") else { return text }
        var result = ""
        var rest = Substring(text)
        while let scheme = rest.range(of: "://") {
            result += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            // The authority ends at the first `/`, `?`, `#` or whitespace.
            let end = rest.firstIndex { "/?#".contains($0) || $0.isWhitespace } ?? rest.endIndex
            let authority = rest[..<end]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result += authority[...colon] + placeholder + authority[at...]
            } else {
                result += authority
            }
            rest = rest[end...]
        }
        return result + rest
    }
}
