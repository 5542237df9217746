import Foundation
import GannetTestSupport
import Testing

/// `gannet --session`: httpie's sessions. Cookies and header items from one command go with
/// the next one naming the same session, from a file only its owner can read.
@Suite("gannet --session")
struct CLISessionTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    /// Runs gannet with `XDG_CONFIG_HOME` pointing into `home`.
    private func gannet(_ arguments: [String], home: URL) async throws -> GannetBinary.Result {
        try await GannetBinary.run(
            executable: try GannetBinary.location(),
            arguments: arguments,
            in: home,
            timeout: .seconds(60),
            environment: ["XDG_CONFIG_HOME": home.path]
        )
    }

    private func temporaryHome() throws -> URL {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-session-\(UUID())")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    @Test func aCookieSetInOneCommandGoesWithTheNext() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        // httpbin answers 302 with the cookie; gannet does not follow, and keeps the cookie.
        let set = try await gannet(["--session", "s", "GET", "\(httpbin)/cookies/set?k=v"], home: home)
        #expect(set.status == 0, "\(set.err)")
        let seen = try await gannet(["--session", "s", "GET", "\(httpbin)/cookies"], home: home)
        #expect(seen.status == 0, "\(seen.err)")
        #expect(try seen.json()["cookies"] as? [String: String] == ["k": "v"], "\(seen.out)")

        // The file is the owner's alone, in a folder that is too.
        let port = try #require(servers.httpbin.port)
        let folder = home.appendingPathComponent("gannet/sessions/127.0.0.1_\(port)")
        let file = folder.appendingPathComponent("s.json")
        let fileMode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        let folderMode = try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int
        #expect(fileMode == 0o600)
        #expect(folderMode == 0o700)

        // Without the session, nothing is kept.
        let plain = try await gannet(["GET", "\(httpbin)/cookies"], home: home)
        #expect(try plain.json()["cookies"] as? [String: String] == [:])
    }

    @Test func headerItemsAreKeptAndAPathNamesTheFile() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let path = home.appendingPathComponent("sessions/mine.json").path
        let first = try await gannet(["--session", path, "\(httpbin)/headers", "X-Token:abc"], home: home)
        #expect(first.status == 0, "\(first.err)")
        let second = try await gannet(["--session", path, "\(httpbin)/headers"], home: home)
        let headers = try second.json()["headers"] as? [String: Any]
        #expect(headers?["X-Token"] as? String == "abc", "\(second.out)")
        // An item of the same name wins over the session's.
        let third = try await gannet(["--session", path, "\(httpbin)/headers", "X-Token:new"], home: home)
        #expect((try third.json()["headers"] as? [String: Any])?["X-Token"] as? String == "new")
        let saved = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect((saved as? [String: Any])?["version"] as? Int == 1)
    }

    @Test(arguments: [("basic", "basic-auth"), ("digest", "digest-auth/auth")])
    func theAuthOfOneCommandIsKeptForTheNext(type: String, route: String) async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let url = "\(httpbin)/\(route)/u/p"
        let first = try await gannet(["--session", "s", "-A", type, "-a", "u:p", url], home: home)
        #expect(first.status == 0, "\(first.err)")
        let second = try await gannet(["--session", "s", url], home: home)
        #expect(second.status == 0, "\(second.err)")
        #expect(try second.json()["authenticated"] as? Bool == true, "\(second.out)")
        // A command's own --auth replaces the kept one; a wrong one is refused (exit 4, a 4xx).
        let wrong = try await gannet(
            ["--session", "s", "-A", type, "-a", "u:wrong", "--check-status", url],
            home: home
        )
        #expect(wrong.status == 4, "\(wrong.err)")
        let after = try await gannet(["--session", "s", "--check-status", url], home: home)
        #expect(after.status == 4, "the session now keeps the wrong password: \(after.err)")
        // Without the session nothing is sent.
        let plain = try await gannet(["--check-status", url], home: home)
        #expect(plain.status == 4)
    }

    /// A session file's cookies are judged again by the rules every stored cookie keeps (the
    /// same as a ``CookieJar`` file's): one written by an older gannet, or edited by hand, must
    /// not send what the cookie rules refuse: a `__Host-` or `__Secure-` cookie without `Secure`,
    /// or a domain cookie for a public suffix.
    @Test func aSessionsCookiesAreJudgedAgainWhenRead() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let path = home.appendingPathComponent("planted.json").path
        let cookie = { (name: String, domain: String) in
            #"{"name": "\#(name)", "value": "1", "domain": "\#(domain)", "path": "/", "secure": false}"#
        }
        let file = """
            {"version": 1, "headers": {}, "cookies": [\(cookie("kept", "127.0.0.1")), \(cookie("__Host-bad", "127.0.0.1")),
            \(cookie("__Secure-bad", "127.0.0.1")), \(cookie("suffix", ".com"))]}
            """
        let created = FileManager.default.createFile(
            atPath: path,
            contents: Data(file.utf8),
            attributes: [.posixPermissions: 0o600]
        )
        #expect(created)
        let seen = try await gannet(["--session", path, "GET", "\(httpbin)/cookies"], home: home)
        #expect(seen.status == 0, "\(seen.err)")
        #expect(try seen.json()["cookies"] as? [String: String] == ["kept": "1"], "\(seen.out)")
        // The session is written back without them.
        let saved = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path)))
        let names = ((saved as? [String: Any])?["cookies"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(names == ["kept"], "\(String(describing: saved))")
    }

    @Test func aFileThatIsNotASessionIsAClearError() async throws {
        let home = try temporaryHome()
        defer { try? FileManager.default.removeItem(at: home) }
        let path = home.appendingPathComponent("broken.json").path
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        let result = try await gannet(["--session", path, "\(httpbin)/get"], home: home)
        #expect(result.status == 1)
        #expect(result.err.contains("is not a gannet session"), "\(result.err)")
    }
}
