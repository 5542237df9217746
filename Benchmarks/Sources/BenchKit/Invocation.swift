public import Foundation

/// One run of a benchmark client, parsed from the shared command line:
///
/// ```
/// CLIENT get URL --requests N --concurrency C [flags]
/// CLIENT download URL [--output FILE]
/// CLIENT upload URL FILE
/// ```
///
/// Extra boolean flags (`--async`, `--new-connections`, `--pin`, …) are client specific; a
/// client names the ones it knows and any other ends the run with exit code 2, as an
/// unsupported mode does. The CA for https comes from `BENCH_CA_FILE`.
public struct Invocation: Sendable {
    /// The three workloads of the contract.
    public enum Mode: String, Sendable {
        /// Many small GETs.
        case get
        /// One large body, streamed and discarded (or written to `--output`).
        case download
        /// One file sent as a POST body.
        case upload
    }

    /// The workload.
    public let mode: Mode
    /// The target.
    public let url: URL
    /// The file to upload (`upload` only).
    public let file: String?
    /// The number of GETs (`get` only).
    public let requests: Int
    /// GETs in flight at once (`get` only).
    public let concurrency: Int
    /// Where `download` writes the body; `nil` discards it.
    public let output: String?
    /// The client-specific boolean flags given, without their leading dashes.
    public let flags: Set<String>

    /// The PEM CA bundle to trust for https, from `BENCH_CA_FILE`.
    public var caFile: String? { ProcessInfo.processInfo.environment["BENCH_CA_FILE"] }

    /// Whether `--name` was given.
    public func has(_ name: String) -> Bool { flags.contains(name) }

    /// Parses the process arguments; exits 1 on a malformed command line and 2 on a mode or
    /// flag this client does not support.
    public static func parse(
        _ arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        supportedModes: Set<Mode> = [.get, .download, .upload],
        supportedFlags: Set<String> = []
    ) -> Invocation {
        guard let first = arguments.first else { Report.usage("missing mode") }
        guard let mode = Mode(rawValue: first) else { Report.unsupported("unknown mode \(first)") }
        guard supportedModes.contains(mode) else { Report.unsupported("mode \(first) is not supported by this client") }
        var positional: [String] = []
        var values: [String: String] = [:]
        var flags = Set<String>()
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                positional.append(argument)
                continue
            }
            let name = String(argument.dropFirst(2))
            if ["requests", "concurrency", "output"].contains(name) {
                guard index < arguments.count else { Report.usage("\(argument) needs a value") }
                values[name] = arguments[index]
                index += 1
            } else if supportedFlags.contains(name) {
                flags.insert(name)
            } else {
                Report.unsupported("flag \(argument) is not supported by this client")
            }
        }
        guard let target = positional.first, let url = URL(string: target), url.scheme != nil else {
            Report.usage("missing or invalid URL")
        }
        let requests = Int(values["requests"] ?? "1") ?? 0
        let concurrency = Int(values["concurrency"] ?? "1") ?? 0
        guard requests > 0, concurrency > 0 else { Report.usage("--requests and --concurrency must be positive") }
        let file = positional.count > 1 ? positional[1] : nil
        if mode == .upload && file == nil { Report.usage("upload needs a FILE") }
        return Invocation(
            mode: mode,
            url: url,
            file: file,
            requests: requests,
            concurrency: min(concurrency, requests),
            output: values["output"],
            flags: flags
        )
    }
}
