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

    /// Parses a command line (without the program name).
    static func parse(_ arguments: [String]) throws -> Command {
        let (options, positionals) = try ArgumentParser.parse(arguments)
        if options.help || positionals.isEmpty && !options.version { return .help }
        if options.version { return .version }
        if positionals.first == "pins" {
            guard positionals.count == 2 else {
                throw CLIError.usage("usage: gannet pins FILE|https://host[:port]")
            }
            return .pins(target: positionals[1], options: options)
        }
        return .request(try Invocation(positionals: positionals, options: options))
    }
}

/// A request command line: `[METHOD] URL [ITEM ...]` and its options.
struct Invocation: Equatable, Sendable {
    var method: String
    var url: URL
    var items: [RequestItem]
    var options: Options

    /// Methods recognised in any case; any other word counts as a method only in capitals
    /// (`PROPFIND`), so that `gannet localhost a==1` reads `localhost` as the URL.
    static let knownMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT"]

    init(positionals: [String], options: Options) throws {
        var rest = positionals[...]
        var method: String?
        if rest.count >= 2, let first = rest.first, Self.looksLikeMethod(first) {
            method = first.uppercased()
            rest = rest.dropFirst()
        }
        guard let urlText = rest.first else { throw CLIError.usage("a URL is required") }
        url = try Self.url(from: urlText)
        items = try rest.dropFirst().map(RequestItem.parse)
        self.method = method ?? (items.contains(where: \.isData) ? "POST" : "GET")
        self.options = options
    }

    static func looksLikeMethod(_ word: String) -> Bool {
        guard !word.isEmpty, word.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) }) else { return false }
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
