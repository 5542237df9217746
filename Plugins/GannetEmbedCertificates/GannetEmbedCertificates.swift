import Foundation
import PackagePlugin

/// Build tool plugin: embeds the certificate files of the target it is applied to as DER `Data`
/// constants in a generated `EmbeddedCertificates.swift`, so an app pins certificates without
/// shipping a resource bundle. See docs/plugins.md.
@main
struct GannetEmbedCertificates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        guard let module = target as? SwiftSourceModuleTarget else {
            Diagnostics.error("GannetEmbedCertificates generates Swift; '\(target.name)' is not a Swift target")
            return []
        }
        let directory = CertificateFiles.directory(of: target)
        let certificates = try CertificateFiles.find(under: directory)
        // The generator reads these only to import Foundation the way the rest of the module does.
        let swiftSources = module.sourceFiles(withSuffix: "swift").map(\.url)
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedCertificates.swift")

        var arguments = [
            "--output", output.path(percentEncoded: false), "--root", directory.path(percentEncoded: false),
        ]
        for source in swiftSources {
            arguments += ["--swift-source", source.path(percentEncoded: false)]
        }
        arguments.append("--")
        arguments += certificates.map { $0.path(percentEncoded: false) }

        return [
            .buildCommand(
                displayName: "Embedding \(certificates.count) certificate file(s) in \(target.name)",
                executable: try context.tool(named: "GannetCertificateEmbedder").url,
                arguments: arguments,
                inputFiles: certificates + swiftSources,
                outputFiles: [output]
            )
        ]
    }
}
