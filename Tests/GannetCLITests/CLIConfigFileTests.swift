import Foundation
import GannetTestSupport
import Testing

/// `$XDG_CONFIG_HOME/gannet/config.json` (issue 28): its default options go before the command
/// line's, `--ignore-config` and `GANNET_IGNORE_CONFIG=1` skip it, and a broken file is an error
/// naming it, never silently ignored.
@Suite("gannet config file")
struct CLIConfigFileTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    /// A fresh `XDG_CONFIG_HOME` whose gannet/config.json holds `contents`.
    func configHome(_ contents: String) throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("gannet"),
            withIntermediateDirectories: true
        )
        try Data(contents.utf8).write(to: home.appendingPathComponent("gannet/config.json"))
        return home
    }

    func run(_ arguments: [String], home: URL, ignore: String? = nil) async throws -> GannetBinary.Result {
        var environment = ["XDG_CONFIG_HOME": home.path]
        environment["GANNET_IGNORE_CONFIG"] = ignore ?? ""
        return try await GannetBinary.run(
            executable: GannetBinary.location(),
            arguments: arguments,
            in: nil,
            timeout: .seconds(60),
            environment: environment
        )
    }

    @Test func defaultOptionsApplyAndCanBeIgnoredForOneCommand() async throws {
        let home = try configHome(#"{"default_options": ["--check-status", "--print=b"]}"#)
        defer { try? FileManager.default.removeItem(at: home) }
        let url = "\(httpbin)/status/404"
        let withDefaults = try await run([url], home: home)
        #expect(withDefaults.status == 4, "--check-status came from the file: \(withDefaults.err)")
        let ignored = try await run(["--ignore-config", url], home: home)
        #expect(ignored.status == 0, "\(ignored.err)")
        let ignoredByEnvironment = try await run([url], home: home, ignore: "1")
        #expect(ignoredByEnvironment.status == 0, "\(ignoredByEnvironment.err)")
        // "0" and empty do not ignore it.
        #expect(try await run([url], home: home, ignore: "0").status == 4)
    }

    @Test func theCommandLineComesAfterTheDefaults() async throws {
        let home = try configHome(#"{"default_options": ["--follow", "--max-redirects=1"]}"#)
        defer { try? FileManager.default.removeItem(at: home) }
        let url = "\(httpbin)/redirect/3"
        let defaults = try await run([url], home: home)
        #expect(defaults.status == 6, "followed, with the file's limit of 1: \(defaults.err)")
        let overridden = try await run(["--max-redirects=3", url], home: home)
        #expect(overridden.status == 0, "the command line's limit wins: \(overridden.err)")
    }

    @Test(arguments: [
        (#"{"default_options": "--follow"}"#, Int32(1)),
        ("not json", Int32(1)),
        (#"{"default_options": ["--no-such-option"]}"#, Int32(2)),
        (#"{"default_options": ["https://example.com"]}"#, Int32(2)),
    ])
    func aBrokenFileIsAnErrorNamingIt(_ contents: String, _ status: Int32) async throws {
        let home = try configHome(contents)
        defer { try? FileManager.default.removeItem(at: home) }
        let marker = "config-\(UUID().uuidString)"
        let result = try await run(["\(nginx)/echo?id=\(marker)"], home: home)
        #expect(result.status == status, "\(result.err)")
        #expect(result.err.contains("gannet/config.json"), "\(result.err)")
        #expect(servers.accessLogLines(containing: marker).isEmpty, "nothing is sent")
        // --ignore-config still works with a broken file.
        #expect(try await run(["--ignore-config", "\(nginx)/echo?id=\(marker)"], home: home).status == 0)
    }

    @Test func noFileIsNoDefaults() async throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-config-\(UUID().uuidString)")
        let result = try await run(["\(httpbin)/status/404"], home: home)
        #expect(result.status == 0, "\(result.err)")
    }
}
