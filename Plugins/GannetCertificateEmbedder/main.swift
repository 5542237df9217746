import Foundation

// The GannetEmbedCertificates build tool plugin runs this for every target it is applied to;
// a failure here fails the build with the message below, which names the offending file.
do {
    let warnings = try EmbedCommand(arguments: Array(CommandLine.arguments.dropFirst())).run()
    for warning in warnings {
        FileHandle.standardError.write(Data((warning + "\n").utf8))
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
