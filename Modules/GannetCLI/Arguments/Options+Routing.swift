import Gannet

/// `--resolve`, `--connect-to` and `--unix-socket`, read with the library's own parsers, so a
/// value libcurl would skip with only a verbose-log line is a usage error before anything is
/// sent (docs/cli.md, "Reaching a host another way").
extension Options {
    /// `--resolve HOST:PORT:ADDR[,ADDR]`, repeatable.
    mutating func addResolve(_ value: String) throws {
        do {
            routing.resolve.append(try SessionConfiguration.Routing.Resolve(parsing: value))
        } catch let error as GannetError {
            throw CLIError.usage("--\(error.message)")
        }
    }

    /// `--connect-to HOST1:PORT1:HOST2:PORT2`, repeatable.
    mutating func addConnectTo(_ value: String) throws {
        do {
            routing.connectTo.append(try SessionConfiguration.Routing.ConnectTo(parsing: value))
        } catch let error as GannetError {
            throw CLIError.usage("--\(error.message)")
        }
    }

    /// `--unix-socket PATH`: once, as curl takes it.
    mutating func setUnixSocket(_ path: String) throws {
        if let existing = routing.unixSocketPath, existing != path {
            throw CLIError.usage("--unix-socket is given twice: \(existing) and \(path)")
        }
        var checked = routing
        checked.unixSocketPath = path
        do {
            try checked.validate()
        } catch let error as GannetError {
            throw CLIError.usage("--unix-socket: \(error.message)")
        }
        routing = checked
    }
}
