import Foundation
import GannetTestSupport
import Testing

/// `--auth` and `--auth-type`: bearer tokens, and the password `--auth USER` leaves out, asked
/// for on the terminal with echo off (as httpie does), or refused where there is no terminal.
@Suite("gannet --auth and --auth-type")
struct CLIAuthTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    @Test func aBearerTokenIsSentAsItIs() async throws {
        let result = try await GannetBinary.run(["-A", "bearer", "-a", "t0ken:with:colons", "\(httpbin)/bearer"])
        #expect(result.status == 0, "\(result.err)")
        #expect(try result.json()["token"] as? String == "t0ken:with:colons")
        #expect(try result.json()["authenticated"] as? Bool == true)
    }

    /// Digest is answered after httpbin's 401, computed by libcurl; a wrong password gives the
    /// 401 to the caller (exit 4 with --check-status).
    @Test func digestIsAnsweredAfterTheChallenge() async throws {
        let good = try await GannetBinary.run([
            "-A", "digest", "-a", "u:p", "--check-status", "\(httpbin)/digest-auth/auth/u/p",
        ])
        #expect(good.status == 0, "\(good.err)")
        #expect(try good.json()["authenticated"] as? Bool == true)
        let bad = try await GannetBinary.run([
            "-A", "digest", "-a", "u:x", "--check-status", "\(httpbin)/digest-auth/auth/u/p",
        ])
        #expect(bad.status == 4, "\(bad.err)")
    }

    @Test func ntlmIsAnsweredAfterTheChallenge() async throws {
        let server = try HelperServer(script: "ntlm_server.py", arguments: ["GANNET", "u", "p"])
        defer { server.stop() }
        let port = try #require(try await server.ports()["plain"])
        let url = "http://127.0.0.1:\(port)/ntlm"
        let good = try await GannetBinary.run(["-A", "ntlm", "-a", "GANNET\\u:p", "--check-status", url])
        #expect(good.status == 0, "\(good.err)")
        #expect(try good.json()["user"] as? String == "GANNET\\u")
        let bad = try await GannetBinary.run(["-A", "ntlm", "-a", "GANNET\\u:x", "--check-status", url])
        #expect(bad.status == 4, "\(bad.err)")
    }

    /// The password is typed into a pseudo-terminal after the prompt appears; what the terminal
    /// shows never contains it, and httpbin accepted it.
    @Test func aMissingPasswordIsAskedForWithoutEcho() async throws {
        let password = "hunter2-\(UUID().uuidString.prefix(8))"
        let script = """
            import os, pty, sys, select, time
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            seen = b""
            typed = False
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                ready, _, _ = select.select([fd], [], [], 0.05)
                if ready:
                    try:
                        chunk = os.read(fd, 65536)
                    except OSError:
                        break
                    if not chunk:
                        break
                    seen += chunk
                if not typed and b"password for user@" in seen:
                    os.write(fd, os.environ["GANNET_TYPED"].encode() + b"\\n")
                    typed = True
            _, status = os.waitpid(pid, 0)
            sys.stdout.write(seen.decode("utf-8", "replace"))
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        let url = "\(httpbin)/basic-auth/user/\(password)"
        let result = try await GannetBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", "-c", script, try GannetBinary.location().path, "--auth", "user", "-b", url],
            in: nil,
            timeout: .seconds(90),
            environment: ["GANNET_TYPED": password]
        )
        #expect(result.status == 0, "\(result.out) \(result.err)")
        #expect(result.out.contains("gannet: password for user@127.0.0.1: "), "\(result.out)")
        #expect(result.out.contains(#""authenticated": true"#), "\(result.out)")
        #expect(!result.out.contains(password), "the password was echoed: \(result.out)")
    }

    /// `setsid` starts gannet without a controlling terminal: nothing to ask on, a usage error,
    /// and no request sent with a missing password.
    @Test func withoutATerminalAMissingPasswordIsAUsageError() async throws {
        let result = try await GannetBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/setsid"),
            arguments: ["-w", try GannetBinary.location().path, "--auth", "user", "\(httpbin)/basic-auth/user/pass"],
            in: nil,
            timeout: .seconds(60)
        )
        #expect(result.status == 2, "\(result.out) \(result.err)")
        #expect(result.err.contains("no terminal to ask for it on"), "\(result.err)")
    }

    // MARK: issue 24: a credential only in its scheme, only to its origin

    /// `-A digest` and `-A ntlm` against a server that offers only Basic: the fault server
    /// records every `Authorization` it received, and none came (curl's `--digest` refuses
    /// the downgrade too); the 401 is the response (exit 4 with --check-status).
    @Test(arguments: ["digest", "ntlm"])
    func aStrongerSchemeIsNeverAnsweredAsBasic(type: String) async throws {
        let key = UUID().uuidString
        let url = servers.url(.authRecord(key)).absoluteString
        let result = try await GannetBinary.run(["-A", type, "-a", "u:p", "--check-status", url])
        #expect(result.status == 4, "\(result.err)")
        let received = try servers.authorizationsReceived(key)
        #expect(received.allSatisfy { $0.isEmpty }, "the server received \(received)")
    }

    /// With --follow, a redirect to another origin (the fault server) that asks for the same
    /// scheme gets no credential, whichever -A gave it.
    @Test(arguments: [
        ("basic", "Basic realm=\"fault\""),
        ("digest", "Digest realm=\"fault\", nonce=\"0123456789abcdef\", qop=\"auth\""),
        ("ntlm", "NTLM"),
    ])
    func followingARedirectDoesNotTakeTheCredentialToAnotherOrigin(type: String, challenge: String) async throws {
        let key = UUID().uuidString
        var target = URLComponents(string: "\(httpbin)/redirect-to")!
        target.queryItems = [
            URLQueryItem(name: "url", value: servers.url(.authRecord(key, challenge: challenge)).absoluteString)
        ]
        let result = try await GannetBinary.run([
            "-A", type, "-a", "u:p", "--follow", "--check-status", target.url!.absoluteString,
        ])
        #expect(result.status == 4, "\(result.err)")
        let received = try servers.authorizationsReceived(key)
        #expect(received == [""], "the server received \(received)")
    }
}
