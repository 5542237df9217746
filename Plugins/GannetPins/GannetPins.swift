import Foundation
import PackagePlugin

/// Command plugin `swift package gannet-pins [FILE|https://HOST[:PORT] ...] [--target NAME ...]`:
/// prints the SPKI SHA-256 pin (`sha256/BASE64`, OkHttp's form) and the subject of every
/// certificate in the given files, in the chains the given servers present, and in the
/// certificate files of the named targets, by running `gannet pins FILE|URL` for each.
///
/// The `gannet` executable comes from a build request rather than `context.tool(named:)`:
/// SwiftPM 6.3 cannot give a plugin an executable target of its own package that also has an
/// explicitly named product (`gannet` for `GannetCLI`): it fails with "no product named
/// 'GannetCLI'" (swiftlang/swift-package-manager#8831).
@main
struct GannetPins: CommandPlugin {
    static let usage = """
        usage: swift package gannet-pins [FILE|https://HOST[:PORT] ...] [--target NAME ...]
          FILE                a certificate file (PEM or DER)
          https://HOST[:PORT] the chain that server presents, leaf first (as `gannet pins`)
          --target NAME       every .cer, .der, .crt and .pem file under that target's directory
        Prints one line per certificate: FILE|URL  sha256/BASE64=  SUBJECT
        A file or server that fails is reported and the others are still printed.
        """

    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        if extractor.extractFlag(named: "help") > 0 {
            print(Self.usage)
            return
        }
        let targetNames = extractor.extractOption(named: "target")
        let files = extractor.remainingArguments
        if let unknown = files.first(where: { $0.hasPrefix("--") }) {
            throw PinsError("unknown option \(unknown)\n\(Self.usage)")
        }
        guard !files.isEmpty || !targetNames.isEmpty else {
            throw PinsError("name certificate files, https:// URLs or a --target\n\(Self.usage)")
        }

        // A URL goes to `gannet pins` as it is (it fetches the chain); a file by its full path.
        // Every failure, an unreadable file included, is gannet's own message, reported after
        // the other jobs ran (docs/plugins.md).
        var jobs = files.map { argument in
            argument.lowercased().hasPrefix("https://")
                ? PinJob(display: argument, argument: argument)
                : PinJob(display: argument, argument: URL(fileURLWithPath: argument).path(percentEncoded: false))
        }
        for target in try context.package.targets(named: targetNames) {
            let found = try CertificateFiles.find(under: CertificateFiles.directory(of: target))
            if found.isEmpty {
                Diagnostics.warning("target '\(target.name)' has no .cer, .der, .crt or .pem file")
            }
            jobs += found.map {
                PinJob(
                    display: Self.display($0, relativeTo: context.package.directoryURL),
                    argument: $0.path(percentEncoded: false)
                )
            }
        }

        let gannet = try buildGannet()
        let errorsFile = context.pluginWorkDirectoryURL.appending(path: "gannet-pins.stderr")
        var failed: [String] = []
        for job in jobs {
            let result = try Self.run(gannet, ["pins", job.argument], errorsTo: errorsFile)
            for line in result.output.split(whereSeparator: \.isNewline) where !line.isEmpty {
                print("\(job.display)  \(line)")
            }
            let errors = result.errors.trimmingCharacters(in: .whitespacesAndNewlines)
            if result.status != 0 {
                failed.append(job.display)
                Diagnostics.error(
                    "\(job.display): \(errors.isEmpty ? "gannet pins exited with status \(result.status)" : errors)"
                )
            } else if !errors.isEmpty {
                Diagnostics.warning("\(job.display): \(errors)")
            }
        }
        guard failed.isEmpty else {
            throw PinsError(
                "gannet pins failed for \(failed.count) of \(jobs.count) file(s) or server(s): \(failed.joined(separator: ", "))"
            )
        }
    }

    /// Builds the package's `gannet` product (debug, like `swift build`) and returns its path.
    private func buildGannet() throws -> URL {
        let result = try packageManager.build(
            .product("gannet"),
            parameters: .init(configuration: .debug, logging: .concise)
        )
        guard result.succeeded else {
            FileHandle.standardError.write(Data(result.logText.utf8))
            throw PinsError("building the gannet executable failed")
        }
        guard let executable = result.builtArtifacts.first(where: { $0.kind == .executable }) else {
            throw PinsError("the build of product 'gannet' produced no executable")
        }
        return executable.url
    }

    /// Runs `tool` to its end. Standard error goes to a file, so that neither of the two pipes
    /// can fill up while the other is being read, and its text can be tied to the file pinned.
    private static func run(
        _ tool: URL,
        _ arguments: [String],
        errorsTo errorsFile: URL
    ) throws -> (output: String, errors: String, status: Int32) {
        try FileManager.default.createDirectory(
            at: errorsFile.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data().write(to: errorsFile)
        let errorsHandle = try FileHandle(forWritingTo: errorsFile)
        defer { try? errorsHandle.close() }
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errorsHandle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = String(decoding: (try? Data(contentsOf: errorsFile)) ?? Data(), as: UTF8.self)
        return (String(decoding: data, as: UTF8.self), errors, process.terminationStatus)
    }

    private static func display(_ url: URL, relativeTo directory: URL) -> String {
        let path = url.path(percentEncoded: false)
        let base = directory.path(percentEncoded: false)
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

/// One certificate file or server to pin, and how to name it in the output.
private struct PinJob {
    var display: String
    /// What `gannet pins` is given: a file's full path or an `https://` URL.
    var argument: String
}

/// A failure of the command, printed by SwiftPM as the plugin's error.
private struct PinsError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
