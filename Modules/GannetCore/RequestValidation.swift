/// The one set of checks that a request can be sent exactly as the caller meant it, run by the
/// engine before anything is sent and by every request serializer on what it builds: curl 7.88
/// puts a CR/LF from a header value on the wire as written (header injection), and
/// Foundation's `URL` accepts strings that become a different request on the wire.
///
/// `GannetRequestSerialization` adds `validate(_:)`, which throws these problems for a
/// `URLRequest`; the predicates below serve a custom serializer that checks as it builds.
public enum RequestValidation {
    /// Whether `name` is an RFC 9110 field name: a non-empty token.
    /// https://www.rfc-editor.org/rfc/rfc9110.html#name-field-names
    public static func isValidHeaderName(_ name: String) -> Bool {
        HTTPSyntax.isToken(name)
    }

    /// Whether `value` may be sent as a field value: no control characters other than
    /// horizontal tab (so no CR, LF or NUL). Bytes above 0x7F (RFC 9110 `obs-text`) are allowed
    /// and sent as UTF-8.
    /// https://www.rfc-editor.org/rfc/rfc9110.html#name-field-values
    public static func isValidHeaderValue(_ value: String) -> Bool {
        HTTPSyntax.isFieldValue(value)
    }

    /// Whether `method` is an RFC 9110 method: a non-empty token.
    /// https://www.rfc-editor.org/rfc/rfc9110.html#name-methods
    public static func isValidMethod(_ method: String) -> Bool {
        HTTPSyntax.isToken(method)
    }

    /// Why a request cannot be sent: the `GannetError` code and a one-line message that never
    /// holds a header value (it may be a credential).
    package struct Problem: Sendable, Equatable {
        package let code: GannetError.Code
        package let message: String

        static let noHost = Problem(code: .invalidRequest, message: "The URL has no host")

        static func portOutOfRange(_ port: Int) -> Problem {
            Problem(code: .invalidRequest, message: "The URL's port \(port) is out of range")
        }
    }

    /// The first problem of a request, URL first, then method, then headers; `nil` when it
    /// can be sent. Schemes other than `http` and `https` pass: the engine refuses them.
    package static func problem(method: String, url: URL?, headers: some Sequence<(String, String)>) -> Problem? {
        problem(url: url) ?? problem(method: method, headers: headers)
    }

    /// ``problem(method:url:headers:)`` for a `URLRequest`'s `allHTTPHeaderFields`, compiled
    /// here for the dictionary: the generic one called from another module walks it through
    /// protocol witnesses.
    package static func problem(method: String, url: URL?, headerFields: [String: String]) -> Problem? {
        problem(url: url) ?? problem(method: method, headers: headerFields.lazy.map { ($0.key, $0.value) })
    }

    /// The problem of a method and its headers, `nil` when they can be sent.
    package static func problem(method: String, headers: some Sequence<(String, String)>) -> Problem? {
        if !isValidMethod(method) {
            return Problem(
                code: .invalidRequest,
                message: "The method \(printable(method)) is not an HTTP token (RFC 9110 §9.1)"
            )
        }
        for (name, value) in headers {
            if let problem = problem(headerName: name, value: value) { return problem }
        }
        return nil
    }

    /// The problem of one header, `nil` when it can be sent.
    package static func problem(headerName name: String, value: String) -> Problem? {
        if !isValidHeaderName(name) {
            return Problem(
                code: .invalidHeader,
                message: "The header name \(printable(name)) is not an HTTP token (RFC 9110 §5.1)"
            )
        }
        if !isValidHeaderValue(value) {
            return Problem(
                code: .invalidHeader,
                message: "The value of header \(name) contains CR, LF, NUL or another control character"
            )
        }
        return nil
    }

    /// The problem of a URL: none, a character outside printable ASCII, or for `http`/`https`
    /// no host, a host that decodes to control characters or spaces, a port above 65535.
    package static func problem(url: URL?) -> Problem? {
        guard let url else { return Problem(code: .invalidRequest, message: "The request has no URL") }
        return verdict(url: url).problem
    }

    /// What the checks make of `url`: its problem, and whether its scheme is `http` or `https`.
    /// The common shape is read from the bytes of `absoluteString`, every request; anything
    /// else is left to Foundation's parser (`foundationVerdict(url:absoluteString:)`), which
    /// gave the same answers at three to four times the cost (docs/performance.md).
    static func verdict(url: URL) -> Verdict {
        let string = url.absoluteString
        let quick = string.utf8.withContiguousStorageIfAvailable(AuthorityScan.verdict(of:))
        return (quick ?? nil) ?? foundationVerdict(url: url, absoluteString: string)
    }

    /// The checks on Foundation's reading of `url`: its `scheme`, percent-decoded `host` and
    /// `port`. The reference the byte scan must agree with (`AuthorityScanTests`).
    static func foundationVerdict(url: URL, absoluteString string: String) -> Verdict {
        // Foundation percent-encodes most bad characters when it parses a string, but a URL can
        // still arrive holding raw ones (built from other APIs); curl would send them verbatim.
        // Checked as UTF-8 bytes: a scalar outside printable ASCII has a byte outside it, and an
        // ASCII byte is its own scalar.
        if string.utf8.contains(where: { $0 <= 0x20 || $0 >= 0x7F }),
            let bad = string.unicodeScalars.first(where: { $0.value <= 0x20 || $0.value >= 0x7F })
        {
            let problem = Problem(
                code: .invalidRequest,
                message: "The URL contains the character \(printable(String(bad))), which cannot be sent"
            )
            return Verdict(problem: problem, isHTTP: url.scheme.map(isHTTPScheme) ?? false)
        }
        guard let scheme = url.scheme, isHTTPScheme(scheme) else { return Verdict(problem: nil, isHTTP: false) }
        guard let host = url.host, !host.isEmpty else { return Verdict(problem: .noHost, isHTTP: true) }
        // `host` is percent-decoded: `%0d%0a` in a host is a CR/LF nobody meant.
        if host.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            let problem = Problem(
                code: .invalidRequest,
                message: "The URL's host decodes to control characters or spaces"
            )
            return Verdict(problem: problem, isHTTP: true)
        }
        if let port = url.port, !(0...65535).contains(port) {
            return Verdict(problem: .portOutOfRange(port), isHTTP: true)
        }
        return Verdict(problem: nil, isHTTP: true)
    }

    /// The outcome of the URL checks.
    struct Verdict: Equatable {
        let problem: Problem?
        let isHTTP: Bool
    }

    /// Whether `scheme` is `http` or `https`, in any case.
    static func isHTTPScheme(_ scheme: String) -> Bool {
        ASCII.equalsIgnoringCase(scheme, "http") || ASCII.equalsIgnoringCase(scheme, "https")
    }

    /// `text` with control and non-ASCII characters written as `\u{…}`, safe for a one-line message.
    package static func printable(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars.prefix(64) {
            if scalar.value >= 0x20 && scalar.value < 0x7F && scalar != "\"" {
                result.unicodeScalars.append(scalar)
            } else {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            }
        }
        if text.unicodeScalars.count > 64 { result += "…" }
        return result + "\""
    }
}

extension RequestValidation {
    /// The engine's check before a transfer starts: the problems above, then only `http` and
    /// `https` (`.unsupportedScheme`). Throws `GannetError` naming the first problem.
    static func validate(method: String, url: URL, headers: some Sequence<(String, String)>) throws {
        let verdict = verdict(url: url)
        if let problem = verdict.problem ?? problem(method: method, headers: headers) {
            throw GannetError(problem.code, problem.message, failingURL: url)
        }
        if !verdict.isHTTP { try requireHTTPScheme(url) }
    }

    /// The engine's check of a redirect target.
    static func validate(url: URL) throws {
        let verdict = verdict(url: url)
        if let problem = verdict.problem {
            throw GannetError(problem.code, problem.message, failingURL: url)
        }
        if !verdict.isHTTP { try requireHTTPScheme(url) }
    }

    private static func requireHTTPScheme(_ url: URL) throws {
        guard let scheme = url.scheme, isHTTPScheme(scheme) else {
            throw GannetError(
                .unsupportedScheme,
                "Only http and https URLs are supported, not \(url.scheme.map { "\($0):" } ?? "a relative URL")",
                failingURL: url
            )
        }
    }
}
