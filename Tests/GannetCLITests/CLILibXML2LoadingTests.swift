import Foundation
import GannetTestSupport
import Testing

/// gannet opens libxml2 only when it parses XML (docs/performance.md, "Start-up"), so a
/// libxml2 it cannot use is an error of the commands that parse XML, never a crash. Each test
/// puts a `libxml2.so.2` that lacks every libxml2 function first on `LD_LIBRARY_PATH` (an empty
/// shared object, built here with clang): the dynamic loader takes it for the system's.
@Suite("gannet without a usable libxml2")
struct CLILibXML2LoadingTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    /// The environment that puts the empty `libxml2.so.2` first, built in a new folder.
    func withoutLibXML2() async throws -> [String: String] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gannet-nolibxml2-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let library = folder.appendingPathComponent("libxml2.so.2")
        let built = try await GannetBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["clang", "-shared", "-x", "c", "/dev/null", "-Wl,-soname,libxml2.so.2", "-o", library.path],
            in: folder,
            timeout: .seconds(120)
        )
        try #require(built.status == 0, "clang could not build the empty libxml2.so.2: \(built.err)")
        let inherited = ProcessInfo.processInfo.environment["LD_LIBRARY_PATH"].map { ":" + $0 } ?? ""
        return ["LD_LIBRARY_PATH": folder.path + inherited]
    }

    func run(_ arguments: [String], environment: [String: String]) async throws -> GannetBinary.Result {
        try await GannetBinary.run(
            executable: GannetBinary.location(),
            arguments: arguments,
            in: nil,
            timeout: .seconds(60),
            environment: environment
        )
    }

    @Test func aRequestThatParsesNoXMLRunsWithoutLibXML2() async throws {
        // Piped and not pretty, the XML body is printed as it came: nothing is parsed.
        let result = try await run(["\(httpbin)/xml"], environment: try await withoutLibXML2())
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("<title>Wake up to WonderWidgets!</title>"), "\(result.out)")
    }

    @Test func parsingXMLWithoutLibXML2IsAClearError() async throws {
        let result = try await run(["--as", "xml", "\(httpbin)/xml"], environment: try await withoutLibXML2())
        #expect(result.status == 1, "\(result.out) \(result.err)")
        #expect(result.err.hasPrefix("gannet: error: "), "\(result.err)")
        #expect(result.err.contains("libxml2 (libxml2.so.2) could not be loaded"), "\(result.err)")
        #expect(result.err.contains("undefined symbol: xmlInitParser"), "dlerror's reason is kept: \(result.err)")
    }

    @Test func formattingFallsBackToTheRawBodyWithoutLibXML2() async throws {
        // --pretty formats XML when it parses; a document it cannot parse is printed as it came.
        let result = try await run(["--pretty=format", "\(httpbin)/xml"], environment: try await withoutLibXML2())
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("<title>Wake up to WonderWidgets!</title>"), "\(result.out)")
    }

    @Test func versionSaysLibXML2IsUnavailable() async throws {
        let result = try await run(["--version"], environment: try await withoutLibXML2())
        #expect(result.status == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.contains("libxml2 unavailable (libxml2.so.2 could not be loaded)"), "\(result.out)")
        #expect(lines.contains { $0.hasPrefix("libcurl 7.") }, "\(result.out)")
    }
}
