/// One option of the command line: its names, whether it takes a value, its help line and
/// what it does to ``Options``. The parser and `--help` both read this table.
struct OptionDefinition: Sendable {
    let long: String
    let short: Character?
    let valueName: String?
    let help: String
    let apply: @Sendable (inout Options, String) throws -> Void

    init(
        _ long: String,
        _ short: Character? = nil,
        value valueName: String? = nil,
        _ help: String,
        apply: @escaping @Sendable (inout Options, String) throws -> Void
    ) {
        self.long = long
        self.short = short
        self.valueName = valueName
        self.help = help
        self.apply = apply
    }

    /// `-o, --output FILE`
    var synopsis: String {
        let short = self.short.map { "-\($0), " } ?? "    "
        return short + "--" + long + (valueName.map { " " + $0 } ?? "")
    }
}

/// Groups of options, in the order `--help` lists them.
enum OptionTable {
    static let groups: [(title: String, options: [OptionDefinition])] = [
        (
            "Body",
            [
                OptionDefinition("json", "j", "Data items as a JSON object (the default); Accept: application/json") {
                    options,
                    _ in
                    options.bodyMode = .json
                    options.explicitJSON = true
                },
                OptionDefinition("form", "f", "Data items as a URL-encoded form; multipart when there are file items") {
                    options,
                    _ in
                    options.bodyMode = .form
                },
                OptionDefinition("multipart", nil, "Data items as multipart/form-data, even without files") {
                    options,
                    _ in
                    options.bodyMode = .multipart
                },
                OptionDefinition("raw", nil, value: "TEXT", "TEXT is the whole request body, as piped stdin would be") {
                    options,
                    value in
                    options.raw = value
                },
                OptionDefinition("ignore-stdin", "I", "Never read stdin, even when it is a pipe or a file") {
                    options,
                    _ in
                    options.ignoreStdin = true
                },
            ]
        ),
        (
            "Output",
            [
                OptionDefinition(
                    "print",
                    "p",
                    value: "WHAT",
                    "What to print: H request headers, B request body, h response headers, b response body, m metrics"
                ) { options, value in
                    options.print = try Options.PrintSelection(letters: value)
                },
                OptionDefinition(
                    "verbose",
                    "v",
                    "Print the request as well as the response; twice (-vv), the metrics too"
                ) { options, _ in
                    options.verbosity += 1
                },
                OptionDefinition("headers", "h", "Print only the response headers") { options, _ in
                    options.headersOnly = true
                },
                OptionDefinition("body", "b", "Print only the response body") { options, _ in
                    options.bodyOnly = true
                },
                OptionDefinition(
                    "pretty",
                    nil,
                    value: "STYLE",
                    "all, colors, format or none (default: all on a terminal, none when piped)"
                ) { options, value in
                    guard let pretty = Options.Pretty(rawValue: value) else {
                        throw CLIError.usage(
                            "--pretty takes all, colors, format or none, not \(value.debugDescription)"
                        )
                    }
                    options.pretty = pretty
                },
                OptionDefinition(
                    "style",
                    "s",
                    value: "STYLE",
                    "auto, or none for no colours anywhere (NO_COLOR=1 does so unless --pretty asks)"
                ) { options, value in
                    guard let style = Options.Style(rawValue: value) else {
                        throw CLIError.usage(
                            "--style takes auto or none, not \(value.debugDescription) (gannet has one colour scheme)"
                        )
                    }
                    options.style = style
                },
                OptionDefinition(
                    "as",
                    nil,
                    value: "TYPE",
                    "Read the body with a response serializer: json, xml, string or data"
                ) { options, value in
                    guard let interpretation = Options.Interpretation(rawValue: value) else {
                        throw CLIError.usage("--as takes json, xml, string or data, not \(value.debugDescription)")
                    }
                    options.interpretation = interpretation
                },
                OptionDefinition(
                    "output",
                    "o",
                    value: "FILE",
                    "Stream the response body to FILE (headers go to stderr)"
                ) { options, value in
                    options.output = value
                },
                OptionDefinition(
                    "continue",
                    "c",
                    "With --output FILE: an interrupted download is kept and the next run resumes it"
                ) { options, _ in
                    options.continueDownload = true
                },
                OptionDefinition(
                    "download",
                    "d",
                    "Stream the body to a file named after the response (or --output), with a progress bar"
                ) { options, _ in
                    options.download = true
                },
                OptionDefinition(
                    "session",
                    nil,
                    value: "NAME|PATH",
                    "Keep cookies, header items and --auth for the next command with the same session (a 0600 file)"
                ) { options, value in
                    options.session = value
                },
                OptionDefinition("offline", nil, "Print the request that would be sent, and send nothing") {
                    options,
                    _ in
                    options.offline = true
                },
                OptionDefinition("check-status", nil, "Exit with 3, 4 or 5 for a 3xx, 4xx or 5xx response") {
                    options,
                    _ in
                    options.checkStatus = true
                },
                OptionDefinition(
                    "stream",
                    "S",
                    "Print the body as it arrives: events of a text/event-stream, else line by line, each formatted"
                ) { options, _ in
                    options.stream = true
                },
            ]
        ),
        (
            "Request",
            [
                OptionDefinition(
                    "auth",
                    "a",
                    value: "USER[:PASS]",
                    "Credentials; without :PASS the password is asked for on the terminal (a TOKEN for bearer)"
                ) { options, value in
                    guard !value.isEmpty else { throw CLIError.usage("--auth needs USER[:PASSWORD] or a token") }
                    options.auth = value
                },
                OptionDefinition(
                    "auth-type",
                    "A",
                    value: "TYPE",
                    "How --auth is sent: basic (default), digest, ntlm or bearer"
                ) {
                    options,
                    value in
                    guard let type = Options.AuthType(rawValue: value) else {
                        throw CLIError.usage(
                            "--auth-type takes basic, digest, ntlm or bearer, not \(value.debugDescription)"
                        )
                    }
                    options.authType = type
                },
                OptionDefinition("follow", "F", "Follow redirects (not followed by default, as in httpie)") {
                    options,
                    _ in
                    options.follow = true
                },
                OptionDefinition("max-redirects", nil, value: "N", "The most redirects --follow follows (default 30)") {
                    options,
                    value in
                    guard let count = Int(value), count >= 0 else {
                        throw CLIError.usage("--max-redirects takes a count, not \(value.debugDescription)")
                    }
                    options.maxRedirects = count
                },
                OptionDefinition(
                    "timeout",
                    nil,
                    value: "SECONDS",
                    "Fail when no byte moves for this long (connecting included)"
                ) { options, value in
                    options.timeout = try OptionTable.seconds(value, for: "--timeout")
                },
                OptionDefinition(
                    "max-time",
                    nil,
                    value: "SECONDS",
                    "Fail when the whole exchange takes longer, redirects included"
                ) { options, value in
                    options.maxTime = try OptionTable.seconds(value, for: "--max-time")
                },
                OptionDefinition(
                    "proxy",
                    nil,
                    value: "[SCHEME:]URL",
                    "Go through this proxy: for every URL, or as httpie's http:URL / https:URL for one scheme (repeatable)"
                ) { options, value in
                    let proxy = try Options.Proxy(parsing: value)
                    if options.proxies.contains(where: { $0.scheme == proxy.scheme }) {
                        throw CLIError.usage(
                            "--proxy is given twice for \(proxy.scheme.map { $0 + " URLs" } ?? "every URL")"
                        )
                    }
                    options.proxies.append(proxy)
                },
            ]
        ),
        (
            "TLS",
            [
                OptionDefinition(
                    "cacert",
                    nil,
                    value: "FILE",
                    "Trust the CA certificates in FILE (PEM) instead of the system store"
                ) { options, value in
                    try options.tls.setCAFile(value)
                },
                OptionDefinition(
                    "verify",
                    nil,
                    value: "yes|no|FILE",
                    "httpie's spelling: no = --allow-invalid-certificates --no-validate-domain; FILE = --cacert FILE"
                ) { options, value in
                    switch value.lowercased() {
                    case "yes", "true": break
                    case "no", "false":
                        options.tls.allowInvalidCertificates = true
                        options.tls.validatesDomainName = false
                    default: try options.tls.setCAFile(value)
                    }
                },
                OptionDefinition(
                    "pin",
                    nil,
                    value: "sha256/BASE64",
                    "Require this SPKI pin in the verified chain (repeatable; see `gannet pins`)"
                ) { options, value in
                    options.tls.pins.append(value)
                },
                OptionDefinition(
                    "pinned-cert",
                    nil,
                    value: "FILE",
                    "Pin the certificate(s) in FILE, PEM or DER (repeatable)"
                ) { options, value in
                    options.tls.pinnedCertificates.append(value)
                },
                OptionDefinition("pinning-mode", nil, value: "MODE", "certificate or public-key (default: public-key)")
                { options, value in
                    guard value == "certificate" || value == "public-key" else {
                        throw CLIError.usage(
                            "--pinning-mode takes certificate or public-key, not \(value.debugDescription)"
                        )
                    }
                    options.tls.pinningMode = value
                },
                OptionDefinition(
                    "allow-invalid-certificates",
                    nil,
                    "Accept expired, self-signed and untrusted certificates (pins still apply)"
                ) { options, _ in
                    options.tls.allowInvalidCertificates = true
                },
                OptionDefinition("no-validate-domain", nil, "Do not check that the certificate names the host") {
                    options,
                    _ in
                    options.tls.validatesDomainName = false
                },
                OptionDefinition("cert", nil, value: "FILE", "Client certificate for mutual TLS (PEM, DER, or .p12)") {
                    options,
                    value in
                    options.tls.certificate = value
                },
                OptionDefinition("key", nil, value: "FILE", "The client certificate's private key (PEM)") {
                    options,
                    value in
                    options.tls.key = value
                },
                OptionDefinition(
                    "cert-key-pass",
                    nil,
                    value: "PASS",
                    "The password of an encrypted --key, or of a PKCS#12 --cert"
                ) { options, value in
                    options.tls.keyPassword = value
                },
            ]
        ),
        (
            "Connection",
            [
                OptionDefinition(
                    "resolve",
                    nil,
                    value: "HOST:PORT:ADDR[,ADDR]",
                    "Connect to ADDR for HOST:PORT instead of asking DNS; TLS still checks HOST (repeatable)"
                ) { options, value in
                    try options.addResolve(value)
                },
                OptionDefinition(
                    "connect-to",
                    nil,
                    value: "HOST1:PORT1:HOST2:PORT2",
                    "Connect to HOST2:PORT2 for a URL's HOST1:PORT1; Host and TLS keep HOST1 (repeatable)"
                ) { options, value in
                    try options.addConnectTo(value)
                },
                OptionDefinition(
                    "unix-socket",
                    nil,
                    value: "PATH",
                    "Send the request over the Unix domain socket PATH (the URL gives Host and path)"
                ) { options, value in
                    try options.setUnixSocket(value)
                },
            ]
        ),
        (
            "Other",
            [
                OptionDefinition("help", nil, "Show this help") { options, _ in
                    options.help = true
                },
                OptionDefinition("version", nil, "Show the version") { options, _ in
                    options.version = true
                },
                OptionDefinition(
                    "ignore-config",
                    nil,
                    "Do not read the default options of the config file (as GANNET_IGNORE_CONFIG=1)"
                ) { _, _ in
                    // Read from the arguments before they are parsed (ConfigFile.applies).
                },
            ]
        ),
    ]

    static let all: [OptionDefinition] = groups.flatMap(\.options)

    /// A positive, finite number of seconds.
    static func seconds(_ value: String, for name: String) throws -> Double {
        guard let seconds = Double(value), seconds > 0, seconds.isFinite else {
            throw CLIError.usage("\(name) takes a positive number of seconds, not \(value.debugDescription)")
        }
        return seconds
    }

    static func named(long: String) -> OptionDefinition? {
        all.first { $0.long == long }
    }

    static func named(short: Character) -> OptionDefinition? {
        all.first { $0.short == short }
    }
}
