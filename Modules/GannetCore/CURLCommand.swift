/// Builds the `curl` command line that sends what Gannet's engine sends for a request, for
/// `cURLDescription()` (docs/monitors.md). Both run the same libcurl, so matching its options
/// is enough: every difference between the curl tool's defaults and the engine's is spelled
/// out (no `User-Agent`, no `Expect`, no form `Content-Type` the caller did not set).
/// Credentials are shown as `***` (``CredentialRedaction``, ``HeaderRedaction``), so a request
/// that carries some does not replay as is.
enum CURLCommand {
    /// - Parameters:
    ///   - body: what the engine sends; `nil` for none.
    ///   - callerURL: the URL the caller asked for, when `request` may be a redirect hop, so that
    ///     session-wide credential headers are left out across origins as the engine leaves them.
    ///   - redaction: the headers whose values are written `***`.
    static func make(
        _ request: URLRequest,
        body: BodySource?,
        configuration: SessionConfiguration,
        callerURL: URL? = nil,
        redacting redaction: HeaderRedaction = .default
    ) -> String {
        var comments: [String] = []
        var options: [String] = []
        var input: String?
        let method = request.httpMethod ?? "GET"
        let upper = method.uppercased()
        let url = request.url

        // The engine: request fields, then the session's that the request does not set.
        var fields: [(name: String, value: String)] = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
            .map { ($0.key, $0.value) }
        let seen = Set(fields.map { $0.name.lowercased() })
        for (name, value) in configuration.httpAdditionalHeaders.sorted(by: { $0.key < $1.key })
        where !seen.contains(name.lowercased()) {
            if let callerURL, let url, Redirection.credentialHeaders.contains(name.lowercased()),
                !Redirection.sameOrigin(callerURL, url)
            {
                continue
            }
            fields.append((name, value))
        }
        // libcurl writes the framing headers itself from the body it is given.
        fields.removeAll { ["content-length", "transfer-encoding"].contains($0.name.lowercased()) }
        func has(_ name: String) -> Bool { fields.contains { $0.name.caseInsensitiveCompare(name) == .orderedSame } }

        let sendsBody = upper != "HEAD" && (body != nil || upper == "POST")
        if upper == "HEAD" {
            options.append("--head")
            if method != "HEAD" { options.append("--request \(quoted(method))") }
        } else if sendsBody {
            if method != "POST" { options.append("--request \(quoted(method))") }
            switch body ?? .data(Data()) {
            case .data(let data):
                if let text = String(data: data, encoding: .utf8), isPlain(text) {
                    options.append("--data-binary \(quoted(text))")
                } else {
                    input = "printf \(quoted(printfFormat(data)))"
                    options.append("--data-binary @-")
                }
            case .file(let file):
                options.append("--data-binary @\(quoted(file.path))")
            case .stream:
                comments.append(
                    "# The body is streamed from an InputStream, which cannot be shown: this command sends none."
                )
            }
            // The curl tool labels a body as a form and asks for `100 Continue`; the engine does neither.
            if !has("Content-Type") { options.append("--header 'Content-Type:'") }
            options.append("--header 'Expect:'")
        } else if method != "GET" {
            options.append("--request \(quoted(method))")
        }

        for (name, value) in fields {
            let line = value.isEmpty ? "\(name);" : "\(name): \(redaction.value(value, ofHeader: name))"
            options.append("--header \(quoted(line))")
        }
        // The engine sends no User-Agent unless asked; `--user-agent ''` removes the tool's.
        if !has("User-Agent") { options.append("--user-agent ''") }
        if configuration.decompressesResponses { options.append("--compressed") }
        switch configuration.httpVersion {
        case .http1_1: options.append("--http1.1")
        case .http2PriorKnowledge: options.append("--http2-prior-knowledge")
        default: break
        }
        if configuration.redirects.maximumRedirects > 0 {
            options.append("--location --max-redirs \(configuration.redirects.maximumRedirects)")
        }
        switch configuration.proxy {
        case .environment: break
        case .none: options.append("--noproxy '*'")
        case .url(let proxy, let bypass):
            options.append("--proxy \(quoted(CredentialRedaction.url(proxy)))")
            if let bypass { options.append("--noproxy \(quoted(bypass))") }
        }
        let tls = configuration.tls
        if tls.serverTrustEvaluator != nil {
            comments.append(
                "# Gannet decides server trust with its evaluator; curl verifies the chain and host itself."
            )
        } else {
            if let caFile = tls.caFile { options.append("--cacert \(quoted(caFile))") }
            if let caDirectory = tls.caDirectory { options.append("--capath \(quoted(caDirectory))") }
        }
        if let client = tls.clientCertificate {
            options.append("--cert \(quoted(client.certificateFile)) --cert-type \(client.format.rawValue)")
            if let key = client.keyFile { options.append("--key \(quoted(key))") }
            if client.password != nil { options.append("--pass \(quoted(CredentialRedaction.placeholder))") }
        }
        let urlString = url.map(CredentialRedaction.url) ?? ""
        // The curl tool expands `[a-b]` and `{a,b}` in URLs; the engine never does.
        if urlString.contains(where: { "[]{}".contains($0) }) { options.append("--globoff") }

        let command =
            (input.map { "\($0) | " } ?? "") + "curl " + (options + [quoted(urlString)]).joined(separator: " \\\n  ")
        return (comments + [command]).joined(separator: "\n")
    }

    /// `text` as one shell word: single quotes, with `'` written `'\''`. By Unicode scalar:
    /// `replacingOccurrences` compares `Character`s, and a quote followed by a combining mark
    /// is another `Character`, so it stayed bare and ended the word early (a header value could
    /// then run commands in the shell that pastes the description).
    static func quoted(_ text: String) -> String {
        var word = String.UnicodeScalarView()
        word.append("'")
        for scalar in text.unicodeScalars {
            if scalar == "'" { word.append(contentsOf: "'\\''".unicodeScalars) } else { word.append(scalar) }
        }
        word.append("'")
        return String(word)
    }

    /// A body that can stand in a shell word as it is: no control character (which would break
    /// the line or hide in a terminal) and no leading `@` (which curl reads as a file name).
    private static func isPlain(_ text: String) -> Bool {
        !text.hasPrefix("@") && !text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// A POSIX `printf` format that writes `data` exactly: printable ASCII as itself, every other
    /// byte as a three-digit octal escape, `%` and `\` escaped, and a leading `-` escaped too
    /// (dash's `printf` reads a multipart body's `--boundary` as an option).
    private static func printfFormat(_ data: Data) -> String {
        var format = ""
        format.reserveCapacity(data.count)
        for (index, byte) in data.enumerated() {
            switch byte {
            case UInt8(ascii: "-") where index == 0: format += "\\055"
            case UInt8(ascii: "%"): format += "%%"
            case UInt8(ascii: "\\"): format += "\\\\"
            case 0x20..<0x7F: format.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let octal = String(byte, radix: 8)
                format += "\\" + String(repeating: "0", count: 3 - octal.count) + octal
            }
        }
        return format
    }
}
