// The smallest JSON client: the `Gannet` product only. scripts/check-linkage.sh checks that it
// links no libxml2 and holds no GannetSecurity symbol, as Package.swift promises.
import Gannet

let manager = HTTPSessionManager(baseURL: URL(string: CommandLine.arguments.dropFirst().first ?? "https://example.com"))
print("JSONClient: \(manager.baseURL?.absoluteString ?? "")")
