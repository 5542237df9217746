/// Which header values are secrets, written as `***` wherever Gannet shows headers to people:
/// ``LoggingEventMonitor``'s lines and `cURLDescription()` (docs/monitors.md, "What is
/// redacted").
///
/// A header is redacted when its name is one of ``names`` or contains one of ``nameFragments``,
/// both compared without regard to case. The defaults cover the standard credential headers
/// and the usual custom ones; a name Gannet cannot know is secret is the caller's to add:
///
/// ```swift
/// var redaction = HeaderRedaction.default
/// redaction.names.insert("X-Tenant")
/// let monitor = LoggingEventMonitor(redacting: redaction) { line in print(line) }
/// print(request.cURLDescription(redacting: redaction))
/// ```
public struct HeaderRedaction: Sendable, Hashable {
    /// Header names whose values are redacted.
    public var names: Set<String>
    /// Parts of header names: a header whose name contains one has its value redacted.
    public var nameFragments: Set<String>

    /// Redacts the headers named, and those whose names contain a fragment.
    public init(names: Set<String> = [], nameFragments: Set<String> = []) {
        self.names = names
        self.nameFragments = nameFragments
    }

    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-API-Key` and
    /// `X-Auth-Token`, and any name containing `authorization`, `cookie`, `token`, `secret`,
    /// `password`, `api-key` or `apikey` (`X-Amz-Security-Token`, `X-Goog-Api-Key`,
    /// `X-Client-Secret`, `X-CSRF-Token` …).
    public static let `default` = HeaderRedaction(
        names: ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-API-Key", "X-Auth-Token"],
        nameFragments: ["authorization", "cookie", "token", "secret", "password", "api-key", "apikey"]
    )

    /// Whether the value of the header `name` is a secret.
    public func redacts(_ name: String) -> Bool {
        if names.contains(where: { ASCII.equalsIgnoringCase($0, name) }) { return true }
        guard !nameFragments.isEmpty else { return false }
        let lowercased = name.lowercased()
        return nameFragments.contains { !$0.isEmpty && lowercased.contains($0.lowercased()) }
    }

    /// `value`, or `***` when the header `name` is a secret.
    public func value(_ value: String, ofHeader name: String) -> String {
        redacts(name) ? CredentialRedaction.placeholder : value
    }
}
