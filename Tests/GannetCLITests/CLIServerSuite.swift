import Foundation
import GannetTestSupport

/// A suite that runs `gannet` against the test servers, with their base URLs as the command
/// line takes them (no trailing `/`, so `"\(httpbin)/get"` reads as typed).
protocol CLIServerSuite {
    var servers: TestServers { get }
}

extension CLIServerSuite {
    var httpbin: String { Self.commandLineBase(servers.httpbin) }
    var nginx: String { Self.commandLineBase(servers.nginx) }
    var fault: String { Self.commandLineBase(servers.fault) }

    static func commandLineBase(_ url: URL) -> String {
        url.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }
}
