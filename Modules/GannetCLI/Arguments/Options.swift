import Foundation

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

        /// Parses httpie's letters: `H` request headers, `B` request body, `h` response
        /// headers, `b` response body.
        init(letters: String) throws {
            for letter in letters {
                switch letter {
                case "H": requestHeaders = true
                case "B": requestBody = true
                case "h": responseHeaders = true
                case "b": responseBody = true
                default: throw CLIError.usage("--print takes the letters H, B, h and b, not \(String(letter).debugDescription)")
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

        /// Whether any option needs a security policy (GannetSecurity) rather than libcurl's own
        /// verification.
        var needsPolicy: Bool {
            !pins.isEmpty || !pinnedCertificates.isEmpty || pinningMode != nil || allowInvalidCertificates || !validatesDomainName
        }
    }

    var bodyMode: BodyMode = .json
    var explicitJSON = false
    var output: String?
    var download = false
    var auth: String?
    var follow = false
    var maxRedirects: Int?
    var timeout: Double?
    var verbose = false
    var print: PrintSelection?
    var headersOnly = false
    var bodyOnly = false
    var pretty: Pretty?
    var interpretation: Interpretation?
    var checkStatus = false
    var tls = TLS()
    var help = false
    var version = false

    /// What to print, from `--print`, `--verbose`, `--headers`, `--body` and where stdout goes:
    /// httpie prints response headers and body on a terminal, only the body when piped.
    func printSelection(stdoutIsTerminal: Bool) -> PrintSelection {
        if let print { return print }
        var selection = PrintSelection()
        if verbose {
            selection.requestHeaders = true
            selection.requestBody = true
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

    /// `--pretty`, or `all` on a terminal and `none` when piped.
    func prettiness(stdoutIsTerminal: Bool) -> Pretty {
        pretty ?? (stdoutIsTerminal ? .all : .none)
    }
}
