import Foundation
import Testing

/// The GannetCertificateEmbedder executable, run the way the plugin runs it.
///
/// The tests run the built tool rather than importing its module: SwiftPM 6.3 links both the
/// plugin's host copy (`GannetCertificateEmbedder-tool`) and the ordinary copy of an executable
/// target into the test bundle when a test target depends on it and applies the plugin that uses
/// it, and the link fails on duplicate symbols. The plugin builds the tool before this target
/// compiles, next to the test bundle.
enum Embedder {
    /// The tool next to the running test bundle.
    static func executable() throws -> URL {
        let running = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let directory = running.resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = ["GannetCertificateEmbedder-tool", "GannetCertificateEmbedder"].map {
            directory.appending(path: $0)
        }
        return try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0.path(percentEncoded: false)) },
            "no GannetCertificateEmbedder in \(directory.path(percentEncoded: false))"
        )
    }

    /// The result of one run: the exit status, standard error, and the generated source if any.
    struct Run {
        var status: Int32
        var errors: String
        var source: String?

        /// The names declared by the generated enum, in order, `all` excepted.
        var names: [String] {
            (source ?? "").split(separator: "\n").compactMap { line in
                guard line.hasPrefix("    static let "), !line.hasPrefix("    static let all:") else { return nil }
                return line.dropFirst("    static let ".count).split(separator: " ").first.map(String.init)
            }
        }

        /// The line of the generated file that imports Foundation.
        var importLine: String? {
            source?.split(separator: "\n").first { $0.contains("import Foundation") }.map(String.init)
        }
    }

    /// Runs the tool on `files` under `root`, writing to `output` (a fresh file by default).
    static func run(
        root: URL,
        files: [URL],
        swiftSources: [URL] = [],
        output: URL? = nil,
        arguments extra: [String]? = nil
    ) async throws -> Run {
        let scratch = try TemporaryDirectory()
        let output = output ?? scratch.url.appending(path: "EmbeddedCertificates.swift")
        var arguments = ["--output", output.path(percentEncoded: false), "--root", root.path(percentEncoded: false)]
        for source in swiftSources {
            arguments += ["--swift-source", source.path(percentEncoded: false)]
        }
        arguments += ["--"] + files.map { $0.path(percentEncoded: false) }
        let outcome = try await CommandLineTool.execute(try executable(), extra ?? arguments)
        let source = try? String(contentsOf: output, encoding: .utf8)
        return Run(status: outcome.status, errors: outcome.errors, source: source)
    }

    /// Runs the tool on one file with `contents`, named `name`, in a fresh target directory.
    static func run(file name: String, contents: Data) async throws -> (run: Run, path: String) {
        let target = try TemporaryDirectory()
        let file = try target.write(name, contents)
        return (try await run(root: target.url, files: [file]), file.path(percentEncoded: false))
    }
}
