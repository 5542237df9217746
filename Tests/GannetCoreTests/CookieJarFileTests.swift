import Foundation
import GannetTestSupport
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 24, class 3: a `CookieJar` persists only to the file its caller names, created new with
/// mode 0600, replaced atomically, reloaded; links and files others could have written are
/// refused.
@Suite("Cookie jar files")
struct CookieJarFileTests {
    let servers: TestServers
    let directory: URL
    init() throws {
        servers = try TestServers.shared()
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-jar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func echo(_ jar: CookieJar, lines: [String] = []) async throws -> String {
        var configuration = SessionConfiguration.default
        configuration.httpCookieStorage = jar
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidateAndCancel() }
        var components = try #require(
            URLComponents(url: servers.fault.adding("/cookies/set"), resolvingAgainstBaseURL: true)
        )
        components.queryItems = [URLQueryItem(name: "lines", value: lines.joined(separator: "\n"))]
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: ";", with: "%3B")
        let response = await manager.response(
            for: URLRequest(url: try #require(components.url)),
            serializer: .passthrough
        )
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        return String(decoding: response.data ?? Data(), as: UTF8.self)
    }

    private func mode(_ url: URL) throws -> (mode: Int, inode: Int) {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return ((attributes[.posixPermissions] as? Int) ?? -1, (attributes[.systemFileNumber] as? Int) ?? -1)
    }

    @Test func aSavedJarIsA0600FileReplacedAtomicallyAndReloaded() async throws {
        let file = directory.appendingPathComponent("cookies.json")
        // An older file of the user's, mode 0644: replaced by a new file, not rewritten in place.
        try Data("{}".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
        let before = try mode(file)
        let jar = try CookieJar(contentsOf: directory.appendingPathComponent("absent.json"))
        #expect(jar.cookies.isEmpty)
        _ = try await echo(jar, lines: ["kept=1; Max-Age=3600; Path=/", "session=1; Path=/"])
        try jar.save(to: file)
        let after = try mode(file)
        #expect(after.mode == 0o600 && after.inode != before.inode, "mode \(String(after.mode, radix: 8))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cookies.json"])
        let reloaded = try CookieJar(contentsOf: file)
        #expect(reloaded.cookies.map(\.name) == ["kept"])
        #expect(try await echo(reloaded) == "kept=1")
        try reloaded.save()
        #expect(try mode(file).mode == 0o600)
    }

    @Test func aLinkAtTheDestinationIsRefusedAndItsTargetUntouched() throws {
        let victim = directory.appendingPathComponent("victim")
        try Data("precious".utf8).write(to: victim)
        let link = directory.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: victim)
        let dangling = directory.appendingPathComponent("dangling.json")
        try FileManager.default.createSymbolicLink(
            at: dangling,
            withDestinationURL: directory.appendingPathComponent("nowhere")
        )
        let jar = CookieJar()
        jar.setCookies(
            [
                HTTPCookie(properties: [
                    .name: "a", .value: "1", .domain: "h", .path: "/", .expires: Date().addingTimeInterval(60),
                ])!
            ],
            for: nil,
            mainDocumentURL: nil
        )
        for destination in [link, dangling] {
            #expect(throws: GannetError.self) { try jar.save(to: destination) }
            #expect(throws: GannetError.self) { _ = try CookieJar(contentsOf: destination) }
        }
        #expect(try String(contentsOf: victim, encoding: .utf8) == "precious")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("nowhere").path))
    }

    @Test func aFileOthersCouldHaveWrittenIsRefused() throws {
        let file = directory.appendingPathComponent("shared.json")
        try Data(#"{"version":1,"cookies":[]}"#.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o666], ofItemAtPath: file.path)
        #expect(throws: GannetError.self) { _ = try CookieJar(contentsOf: file) }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try CookieJar(contentsOf: file).cookies.isEmpty)
    }

    /// A file is not trusted more than a server: a public-suffix `Domain`, a `__Host-` cookie that
    /// is not `Secure`, and an over-long value are dropped when it is loaded.
    @Test func cookiesBreakingTheRulesAreDroppedOnLoad() throws {
        let file = directory.appendingPathComponent("forged.json")
        func cookie(_ name: String, _ value: String, domain: String, hostOnly: Bool, secure: Bool = false) -> String {
            #"{"name":"\#(name)","value":"\#(value)","domain":"\#(domain)","hostOnly":\#(hostOnly),"path":"/","secure":\#(secure),"httpOnly":false,"sameSite":"Default","expires":9999999999,"created":0,"lastAccess":0}"#
        }
        let cookies = [
            cookie("psl", "1", domain: "com", hostOnly: false), cookie("__Host-x", "1", domain: "h", hostOnly: true),
            cookie("long", String(repeating: "v", count: 5000), domain: "h", hostOnly: true),
            cookie("good", "1", domain: "h", hostOnly: true),
        ]
        let text = #"{"version":1,"cookies":["# + cookies.joined(separator: ",") + "]}"
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        #expect(try CookieJar(contentsOf: file).cookies.map(\.name) == ["good"])
    }
}
