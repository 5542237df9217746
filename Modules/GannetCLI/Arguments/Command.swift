import Foundation

/// What a command line asks for.
enum Command: Equatable, Sendable {
    /// `--help`, or no arguments at all.
    case help
    /// `--version`.
    case version
    /// `gannet pins FILE|https://host[:port]`.
    case pins(target: String, options: Options)
    /// `gannet [METHOD] URL [ITEM ...]`.
    case request(Invocation)
    /// `--generate-man`: gannet(1) in roff, from ``OptionTable`` (hidden: for packagers).
    case manPage
    /// `--generate-completion bash|zsh|fish`: a completion script from ``OptionTable`` (hidden).
    case completion(ShellCompletion)

    /// Parses a command line (without the program name); `stdin` is what standard input is,
    /// which decides whether it holds the body.
    static func parse(_ arguments: [String], stdin: StandardInput.Kind = .none) throws -> Command {
        // The generators are not options of a request, so they are not in OptionTable (nor in
        // `--help`); each stands alone (docs/cli.md, "Manual and shell completions").
        if arguments == ["--generate-man"] { return .manPage }
        if arguments.first == "--generate-completion" {
            guard arguments.count == 2, let shell = ShellCompletion(rawValue: arguments[1]) else {
                throw CLIError.usage("usage: gannet --generate-completion bash|zsh|fish")
            }
            return .completion(shell)
        }
        let (options, positionals) = try ArgumentParser.parse(arguments)
        if options.help || positionals.isEmpty && !options.version { return .help }
        if options.version { return .version }
        if positionals.first == "pins" {
            guard positionals.count == 2 else {
                throw CLIError.usage("usage: gannet pins FILE|https://host[:port]")
            }
            return .pins(target: positionals[1], options: options)
        }
        return .request(try Invocation(positionals: positionals, options: options, stdin: stdin))
    }
}

/// A request command line: `[METHOD] URL [ITEM ...]` and its options.
struct Invocation: Equatable, Sendable {
    var method: String
    /// `METHOD` was on the command line (else it was inferred from the body).
    var methodIsExplicit: Bool
    var url: URL
    var items: [RequestItem]
    var options: Options
    /// Where a body that is not made of data items comes from.
    var body: Body?

    /// httpie's raw bodies: sent as they are, never re-encoded.
    enum Body: Equatable, Sendable {
        /// `--raw TEXT`.
        case text(String)
        /// `@FILE`, streamed from disk.
        case file(String)
        /// Piped or redirected standard input.
        case stdin
    }

    /// Methods recognised in any case; any other word counts as a method only in capitals
    /// (`PROPFIND`), so that `gannet localhost a==1` reads `localhost` as the URL.
    static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT",
    ]

    init(positionals: [String], options: Options, stdin: StandardInput.Kind = .none) throws {
        var rest = positionals[...]
        var method: String?
        if rest.count >= 2, let first = rest.first, Self.looksLikeMethod(first) {
            method = first.uppercased()
            rest = rest.dropFirst()
        }
        guard let urlText = rest.first else { throw CLIError.usage("a URL is required") }
        url = try Self.url(from: urlText)
        items = try rest.dropFirst().map(RequestItem.parse)
        body = try Self.rawBody(items: items, options: options, stdin: options.ignoreStdin ? .none : stdin)
        self.method = method ?? (items.contains(where: \.isData) || body != nil ? "POST" : "GET")
        if self.method == "HEAD", body != nil {
            throw CLIError.usage(
                "a HEAD request sends no body, but one comes from \(body == .stdin ? "stdin (--ignore-stdin to leave it)" : "--raw or @FILE")"
            )
        }
        methodIsExplicit = method != nil
        self.options = options
    }

    /// The one raw body source, if any. Stdin is never silently dropped: stdin that may hold
    /// data together with another body is a usage error, as in httpie.
    static func rawBody(items: [RequestItem], options: Options, stdin: StandardInput.Kind) throws -> Body? {
        var sources: [(body: Body, name: String)] = []
        if let raw = options.raw { sources.append((.text(raw), "--raw")) }
        for case .bodyFile(let path) in items { sources.append((.file(path), "@" + path)) }
        if stdin != .none { sources.append((.stdin, "stdin (\(stdin))")) }
        let fields = items.filter(\.isData)
        let advice = stdin != .none ? "; pass --ignore-stdin (-I) if stdin is not meant as the body" : ""
        if sources.count > 1 {
            throw CLIError.usage(
                "the body comes from \(sources.map(\.name).joined(separator: " and ")): give one\(advice)"
            )
        }
        guard let (body, name) = sources.first else { return nil }
        if !fields.isEmpty {
            throw CLIError.usage(
                "the body comes from \(name) and from data items (\(fields.count == 1 ? "one item" : "\(fields.count) items")): use one or the other\(advice)"
            )
        }
        if options.bodyMode == .multipart {
            throw CLIError.usage("--multipart builds the body from data items, but it comes from \(name)\(advice)")
        }
        if case .file = body, options.bodyMode == .form {
            throw CLIError.usage("@FILE sends the file as the whole body; a form file part is written name@FILE")
        }
        return body
    }

    static func looksLikeMethod(_ word: String) -> Bool {
        guard !word.isEmpty, word.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) })
        else { return false }
        return knownMethods.contains(word.uppercased()) || word == word.uppercased()
    }

    /// httpie's URL shorthands: no scheme means `http://`; `:3000/x` and `:/x` mean localhost.
    static func url(from text: String) throws -> URL {
        var text = text
        if text.hasPrefix(":") {
            let rest = text.dropFirst()
            text = "http://localhost" + (rest.hasPrefix("/") ? rest : rest.isEmpty ? "" : ":" + rest)
        } else if !text.contains("://") {
            text = "http://" + text
        }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), url.host != nil else {
            throw CLIError.usage("\(text.debugDescription) is not a URL")
        }
        guard scheme == "http" || scheme == "https" else {
            throw CLIError.usage("\(text.debugDescription): only http and https URLs are supported")
        }
        return url
    }
}
