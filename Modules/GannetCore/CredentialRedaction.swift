/// Hides credentials in what Gannet writes for people to read: error messages, log lines,
/// `cURLDescription()`, and the log lines, metrics and spans of the integrations
/// (docs/integrations.md). Every such text built from a URL or quoting libcurl passes
/// ``text(_:quoting:)``, the one function that knows where a URL keeps a secret
/// (docs/monitors.md, "What is redacted"); header values follow ``HeaderRedaction``.
///
/// A secret is replaced whole by ``placeholder``, never shortened, so no prefix of it leaks. The
/// user part of a URL goes whole, user name included: a token is often the user name alone
/// (`https://TOKEN@host/`) or beside a dummy password (`https://TOKEN:x-oauth-basic@host/`).
public enum CredentialRedaction {
    /// What a secret is written as: `***`.
    public static let placeholder = "***"

    /// The URL as a string, its user part (`user:password@`, `token@`) written `***@`.
    public static func url(_ url: URL) -> String {
        text(url.absoluteString)
    }

    /// `text` with every secret a URL can hold in it replaced by the placeholder:
    /// - each string of `quoted` (what Gannet gave libcurl, such as a proxy URL, which libcurl
    ///   quotes whole in its messages) written as its user part redacted, whatever its form,
    ///   scheme or none;
    /// - the user part of every `scheme://user:password@host` or `scheme://token@host`;
    /// - a `user:password@host` without a scheme (curl's proxy syntax).
    ///
    /// A word such as `name@example.com`, with no `:` before its `@` and no `//`, is kept.
    public static func text(_ text: String, quoting quoted: [String] = []) -> String {
        var text = text
        for string in quoted where string.contains("@") && text.contains(string) {
            text = text.replacingOccurrences(of: string, with: authorityRedacted(string))
        }
        guard text.contains("@") else { return text }
        var result = ""
        var rest = Substring(text)
        while let at = rest.firstIndex(of: "@") {
            // The user part runs back from `@` to the start of its word or its `//`.
            var start = at
            while start > rest.startIndex {
                let previous = rest.index(before: start)
                if isWordBoundary(rest[previous]) || rest[previous] == "/" { break }
                start = previous
            }
            let user = rest[start..<at]
            let afterSlashes = rest[..<start].hasSuffix("//")
            if !user.isEmpty, user != Substring(placeholder), afterSlashes || user.contains(":") {
                // In a URL the authority ends at `/`, `?` or `#`: a later `@` before that still
                // belongs to the user part (a password with an `@` left unencoded).
                let authorityEnd = rest[at...].firstIndex { "/?#".contains($0) || isWordBoundary($0) } ?? rest.endIndex
                let lastAt = afterSlashes ? rest[at..<authorityEnd].lastIndex(of: "@") ?? at : at
                result += rest[..<start] + placeholder + "@"
                rest = rest[rest.index(after: lastAt)...]
            } else {
                result += rest[...at]
                rest = rest[rest.index(after: at)...]
            }
        }
        return result + rest
    }

    /// `string`, a URL or curl's `[scheme://]user[:password]@host…`, with its user part `***`.
    private static func authorityRedacted(_ string: String) -> String {
        let afterScheme = string.range(of: "://")?.upperBound ?? string.startIndex
        let authorityEnd = string[afterScheme...].firstIndex { "/?#".contains($0) } ?? string.endIndex
        guard let at = string[afterScheme..<authorityEnd].lastIndex(of: "@") else { return string }
        return string[..<afterScheme] + placeholder + string[at...]
    }

    private static func isWordBoundary(_ character: Character) -> Bool {
        character.isWhitespace || "'\"<>()[]{},;`".contains(character)
    }
}
