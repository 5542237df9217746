import Foundation

/// Default options for every command, httpie's `config.json`: `{"default_options": ["--style=none",
/// "--follow"]}` in `$XDG_CONFIG_HOME/gannet/config.json` (`~/.config` without
/// `XDG_CONFIG_HOME`), put before the command line's own arguments, so an option given on the
/// command line is read after (and for a single-valued option, wins over) the default.
///
/// `--ignore-config` on the command line, or `GANNET_IGNORE_CONFIG` set to anything but empty or
/// `0`, skips the file for one command, so a script runs the same on every machine
/// (docs/cli.md, "Config file"). A file that cannot be read as such is an error (exit 1) naming
/// the file, never silently ignored; a default option gannet does not know is a usage error
/// (exit 2) naming the file too.
enum ConfigFile {
    /// The variables the config file's lookup reads, from the process environment: with
    /// `getenv`, not by copying every variable into ProcessInfo's dictionary at each start
    /// (docs/performance.md, "Start-up").
    static func environment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["XDG_CONFIG_HOME", "HOME", "GANNET_IGNORE_CONFIG"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    /// The config file's path for `environment`.
    static func path(environment: [String: String]) -> String {
        let config =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.config"
        return config + "/gannet/config.json"
    }

    /// Whether this command reads the file: not with `--ignore-config` among its options (before
    /// a `--`), nor with `GANNET_IGNORE_CONFIG` set.
    static func applies(to arguments: [String], environment: [String: String]) -> Bool {
        if let ignore = environment["GANNET_IGNORE_CONFIG"], !ignore.isEmpty, ignore != "0" { return false }
        return !arguments.prefix { $0 != "--" }.contains("--ignore-config")
    }

    /// `arguments` with the file's default options before them; `arguments` alone when the file
    /// does not exist or does not apply.
    static func arguments(_ arguments: [String], environment: [String: String]) throws -> [String] {
        guard applies(to: arguments, environment: environment) else { return arguments }
        let path = path(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else { return arguments }
        let defaults = try defaultOptions(at: path)
        // Checked alone first, so a bad default is reported as the file's, not the command's.
        do {
            let (_, positionals) = try ArgumentParser.parse(defaults)
            if !positionals.isEmpty {
                throw CLIError.usage("\(positionals[0].debugDescription) is not an option")
            }
        } catch let error as CLIError {
            throw CLIError("\(path): default_options: \(error.message)", status: error.status)
        }
        return defaults + arguments
    }

    static func defaultOptions(at path: String) throws -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("cannot read the config file \(path) (--ignore-config or GANNET_IGNORE_CONFIG=1 skips it)")
        }
        struct Contents: Decodable {
            var default_options: [String]?
        }
        do {
            return try JSONDecoder().decode(Contents.self, from: data).default_options ?? []
        } catch {
            throw CLIError(
                "\(path) is not a gannet config file ({\"default_options\": [\"--option\", …]}): \(error)"
            )
        }
    }
}
