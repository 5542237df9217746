import Foundation
import Gannet

/// Everything the options of a command line set. Items and positionals are parsed separately
/// (``Invocation``).
struct Options: Equatable, Sendable {
    /// How data items become the body.
    enum BodyMode: String, Equatable, Sendable {
        /// A JSON object (httpie's default).
        case json
        /// `application/x-www-form-urlencoded`, or multipart when there are file items.
        case form
        /// Always `multipart/form-data`.
        case multipart
    }

    /// How much of the body is coloured and re-indented.
    enum Pretty: String, Equatable, Sendable, CaseIterable {
        case all, colors, format, none

        var colors: Bool { self == .all || self == .colors }
        var format: Bool { self == .all || self == .format }

        /// The same, with colours taken away.
        var withoutColors: Pretty { self == .all ? .format : self == .colors ? .none : self }
    }

    /// `--style`: the colour scheme. gannet has one; `none` turns colours off everywhere.
    enum Style: String, Equatable, Sendable, CaseIterable {
        case auto, none
    }

    /// `--proxy`: a proxy for one scheme (httpie's `http:URL`), or for every scheme (`URL`).
    struct Proxy: Equatable, Sendable {
        var scheme: String?
        var url: URL

        /// The proxy schemes libcurl speaks.
        static let proxySchemes: Set<String> = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

        /// `http://host:port` (every scheme) or httpie's `http:http://host:port` (one scheme).
        init(parsing text: String) throws {
            var rest = Substring(text)
            for scheme in ["http", "https"]
            where text.lowercased().hasPrefix(scheme + ":") && !text.dropFirst(scheme.count + 1).hasPrefix("//") {
                self.scheme = scheme
                rest = text.dropFirst(scheme.count + 1)
            }
            guard let url = URL(string: String(rest)), let proxyScheme = url.scheme?.lowercased(),
                Self.proxySchemes.contains(proxyScheme), let host = url.host, !host.isEmpty
            else {
                throw CLIError.usage(
                    "--proxy takes a proxy URL (http://host:port, socks5://host:port), or httpie's http:URL / https:URL, not \(text.debugDescription)"
                )
            }
            self.url = url
        }

        /// The proxy for `url` among `proxies`: the one for its scheme, else the one for every scheme.
        static func choose(_ proxies: [Proxy], for url: URL) -> Proxy? {
            let scheme = url.scheme?.lowercased()
            return proxies.first { $0.scheme == scheme } ?? proxies.first { $0.scheme == nil }
        }
    }

    /// `--auth-type`: httpie's names.
    enum AuthType: String, Equatable, Sendable, CaseIterable {
        /// `Authorization: Basic`, sent with the first request (RFC 7617).
        case basic
        /// `Authorization: Bearer TOKEN` (RFC 6750).
        case bearer
        /// Digest (RFC 7616), computed by libcurl once the server's `401` names its nonce.
        case digest
        /// NTLM, computed by libcurl once the server's `401` asks for it (`DOMAIN\USER:PASS`).
        case ntlm

        /// Whether the credential is given to the session, answered after the server's `401`,
        /// rather than sent as a header with the first request.
        var answersChallenge: Bool { self == .digest || self == .ntlm }
    }

    /// The response serializer `--as` chooses.
    enum Interpretation: String, Equatable, Sendable, CaseIterable {
        case json, xml, string, data
    }

    /// What gets printed: httpie's `--print` letters.
    struct PrintSelection: Equatable, Sendable {
        var requestHeaders = false
        var requestBody = false
        var responseHeaders = false
        var responseBody = false
        /// The transfer's metrics (timings, reuse, protocol), after the response.
        var metrics = false

        /// Parses httpie's letters: `H` request headers, `B` request body, `h` response
        /// headers, `b` response body, and `m` the metrics.
        init(letters: String) throws {
            for letter in letters {
                switch letter {
                case "H": requestHeaders = true
                case "B": requestBody = true
                case "h": responseHeaders = true
                case "b": responseBody = true
                case "m": metrics = true
                default:
                    throw CLIError.usage(
                        "--print takes the letters H, B, h, b and m, not \(String(letter).debugDescription)"
                    )
                }
            }
        }

        init() {}
    }

    /// Server trust and client certificate options.
    struct TLS: Equatable, Sendable {
        var caFile: String?
        var pins: [String] = []
        var pinnedCertificates: [String] = []
        var pinningMode: String?
        var allowInvalidCertificates = false
        var validatesDomainName = true
        var certificate: String?
        var key: String?
        /// `--cert-key-pass`: decrypts the key, or the PKCS#12 bundle.
        var keyPassword: String?

        /// `--cacert FILE` or `--verify FILE`: one CA file, so two different ones are an error
        /// rather than one silently winning.
        mutating func setCAFile(_ path: String) throws {
            if let caFile, caFile != path {
                throw CLIError.usage("two CA files, \(caFile) and \(path): give one with --cacert or --verify")
            }
            caFile = path
        }

        /// Whether any option needs a security policy (GannetSecurity) rather than libcurl's own
        /// verification.
        var needsPolicy: Bool {
            !pins.isEmpty || !pinnedCertificates.isEmpty || pinningMode != nil || allowInvalidCertificates
                || !validatesDomainName
        }
    }

    var bodyMode: BodyMode = .json
    var explicitJSON = false
    /// `--raw TEXT`: the whole request body.
    var raw: String?
    /// `--ignore-stdin`: stdin is never read, whatever it is.
    var ignoreStdin = false
    var output: String?
    var download = false
    /// `--auth`: `USER:PASS`, `USER` (the password is asked for on the terminal), or a token
    /// for `--auth-type bearer`.
    var auth: String?
    /// `--auth-type`: how ``auth`` is sent.
    var authType: AuthType = .basic
    var follow = false
    var maxRedirects: Int?
    var timeout: Double?
    /// `--max-time`: the longest the whole exchange may take.
    var maxTime: Double?
    var proxies: [Proxy] = []
    /// How many times `-v` was given: once prints the request, twice the metrics too.
    var verbosity = 0
    var print: PrintSelection?
    var headersOnly = false
    var bodyOnly = false
    var pretty: Pretty?
    var style: Style?
    var interpretation: Interpretation?
    var checkStatus = false
    /// `--offline`: build the request and print it; send nothing.
    var offline = false
    /// `--session NAME|PATH`: cookies and header items kept between commands (SessionFile).
    var session: String?
    /// `--continue`: keep an interrupted `--output` download and resume it next time.
    var continueDownload = false
    /// `--stream`: print events or lines as they arrive (StreamCommand).
    var stream = false
    var tls = TLS()
    /// `--resolve`, `--connect-to`, `--unix-socket`: checked as they are parsed.
    var routing = SessionConfiguration.Routing()
    var help = false
    var version = false

    /// `--verbose` given at least once.
    var verbose: Bool {
        get { verbosity > 0 }
        set { verbosity = newValue ? max(verbosity, 1) : 0 }
    }

    /// What to print, from `--print`, `--verbose`, `--headers`, `--body` and where stdout goes:
    /// httpie prints response headers and body on a terminal, only the body when piped.
    func printSelection(stdoutIsTerminal: Bool) -> PrintSelection {
        if let print { return print }
        var selection = PrintSelection()
        if offline {
            // httpie's --offline: the request's head and body, and no response to print.
            selection.requestHeaders = true
            selection.requestBody = true
            return selection
        }
        if verbose {
            selection.requestHeaders = true
            selection.requestBody = true
            selection.metrics = verbosity > 1
        }
        if headersOnly || bodyOnly {
            selection.responseHeaders = headersOnly
            selection.responseBody = bodyOnly
        } else {
            selection.responseHeaders = stdoutIsTerminal || verbose
            selection.responseBody = true
        }
        return selection
    }

    /// `--pretty`, or `all` on a terminal and `none` when piped. `NO_COLOR` (`noColor`) takes
    /// the colours away from the default, as no-color.org asks, but not from an explicit
    /// `--pretty`; `--style=none` takes them away from everything.
    func prettiness(stdoutIsTerminal: Bool, noColor: Bool = false) -> Pretty {
        let chosen = pretty ?? (stdoutIsTerminal ? (noColor ? .format : .all) : .none)
        return style == Style.none ? chosen.withoutColors : chosen
    }

    /// Whether diagnostics (errors, warnings) on a terminal's stderr may be coloured.
    func colorsDiagnostics(on terminal: Terminal) -> Bool {
        terminal.stderrIsTerminal && !terminal.noColor && style != Style.none
    }
}
