import Foundation
import PackagePlugin

/// Finds certificate files below a directory.
///
/// Plugins cannot share source files, so GannetEmbedCertificates and GannetPins each hold this
/// file: keep the copies identical (a test checks), so that `swift package gannet-pins --target T`
/// pins exactly the certificates T embeds.
enum CertificateFiles {
    /// File extensions taken as certificates, compared without regard to case.
    static let extensions: Set<String> = ["cer", "der", "crt", "pem"]

    /// Every regular file with a certificate extension anywhere under `directory` (hidden files
    /// and directories excepted), sorted by path. The walk does not depend on the target's
    /// `exclude:` list, so the certificates can be excluded from the target to keep SwiftPM from
    /// reporting them as unhandled files.
    static func find(under directory: URL) throws -> [URL] {
        guard
            let walker = FileManager.default.enumerator(
                at: directory,
                includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles]
            )
        else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in walker where extensions.contains(url.pathExtension.lowercased()) {
            if try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true {
                found.append(url)
            }
        }
        return found.sorted {
            $0.path(percentEncoded: false).utf8.lexicographicallyPrecedes($1.path(percentEncoded: false).utf8)
        }
    }

    /// The target's directory. `Target.directoryURL` needs tools version 6.1 and this package
    /// declares 6.0, where `Target.directory` is a `Path` whose every accessor is deprecated
    /// except its description, which is the path itself.
    static func directory(of target: any Target) -> URL {
        URL(fileURLWithPath: String(describing: target.directory), isDirectory: true)
    }
}
