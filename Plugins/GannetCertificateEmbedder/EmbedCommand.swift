import Foundation

/// The embedder's command line, as the GannetEmbedCertificates plugin calls it:
///
///     GannetCertificateEmbedder --output OUT.swift --root TARGET_DIR
///                               [--swift-source FILE ...] [--] CERTIFICATE_FILE ...
///
/// `--root` is the target directory: certificates are ordered and described by their path
/// relative to it. `--swift-source` names the target's Swift files, read only to match their
/// way of importing Foundation (see ``FoundationImportStyle``).
struct EmbedCommand: Equatable {
    /// Certificate files larger than this are refused rather than read: a whole CA bundle is
    /// about 200 KiB, so anything beyond this is a mistake, and it would become Swift source.
    static let maximumFileSize = 4 << 20

    var output: String
    var root: String
    var swiftSources: [String] = []
    var certificateFiles: [String] = []

    init(arguments: [String]) throws(EmbedderError) {
        var output: String?
        var root: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--output", "--root", "--swift-source":
                guard let value = rest.popFirst() else { throw EmbedderError(file: nil, "\(argument) needs a value") }
                switch argument {
                case "--output": output = value
                case "--root": root = value
                default: swiftSources.append(value)
                }
            case "--":
                certificateFiles.append(contentsOf: rest)
                rest = []
            case let option where option.hasPrefix("--"):
                throw EmbedderError(file: nil, "unknown option \(option)")
            default:
                certificateFiles.append(argument)
            }
        }
        guard let output, let root else {
            throw EmbedderError(
                file: nil,
                "usage: GannetCertificateEmbedder --output FILE --root DIR [--swift-source FILE ...] [--] CERTIFICATE ..."
            )
        }
        self.output = output
        self.root = root
    }

    /// Reads, checks and names every certificate, then writes the source file (only when its
    /// text changed, so an unchanged build does not recompile it). Returns the warnings.
    @discardableResult
    func run() throws(EmbedderError) -> [String] {
        let (source, warnings) = try generate()
        let outputURL = URL(fileURLWithPath: output)
        if let existing = try? String(contentsOf: outputURL, encoding: .utf8), existing == source {
            return warnings
        }
        do {
            try FileManager.default.createDirectory(
                at: outputURL.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try Data(source.utf8).write(to: outputURL, options: .atomic)
        } catch {
            throw EmbedderError(file: output, "cannot write the generated source: \(error.localizedDescription)")
        }
        return warnings
    }

    /// The generated source text and the warnings, without writing anything.
    func generate() throws(EmbedderError) -> (source: String, warnings: [String]) {
        let files = certificateFiles.map { (path: $0, relative: relativePath(of: $0)) }
            .sorted { $0.relative.utf8.lexicographicallyPrecedes($1.relative.utf8) }
        var naming = CertificateNaming()
        var certificates: [EmbeddedCertificate] = []
        var warnings: [String] = []
        for file in files {
            let decoded = try CertificateDecoder.decode(try Self.read(file.path), file: file.path)
            warnings += decoded.warnings
            let fileName = URL(fileURLWithPath: file.path).lastPathComponent
            let names = naming.names(forFile: fileName, count: decoded.certificates.count)
            for (offset, der) in decoded.certificates.enumerated() {
                certificates.append(
                    EmbeddedCertificate(
                        name: names[offset],
                        path: file.relative,
                        index: offset + 1,
                        countInFile: decoded.certificates.count,
                        der: der
                    )
                )
            }
        }
        var sources: [String] = []
        for path in swiftSources {
            sources.append(String(decoding: try Self.read(path), as: UTF8.self))
        }
        let style = FoundationImportStyle.matching(sources: sources)
        return (EmbeddedSourceRenderer.render(certificates, importStyle: style), warnings)
    }

    /// `path` relative to `root` when it lies under it, else `path` unchanged.
    func relativePath(of path: String) -> String {
        let rootPath = URL(fileURLWithPath: root).standardizedFileURL.path
        let filePath = URL(fileURLWithPath: path).standardizedFileURL.path
        let prefix = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        return filePath.hasPrefix(prefix) ? String(filePath.dropFirst(prefix.count)) : path
    }

    /// Reads at most one byte more than ``maximumFileSize``, so that even a file that grows
    /// while it is read cannot make the embedder hold more than that.
    private static func read(_ path: String) throws(EmbedderError) -> Data {
        let contents: Data
        do {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            contents = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            throw EmbedderError(file: path, "cannot read the file: \(error.localizedDescription)")
        }
        guard contents.count <= maximumFileSize else {
            throw EmbedderError(
                file: path,
                "the file is larger than \(maximumFileSize) bytes, too large for a certificate file"
            )
        }
        return contents
    }
}
