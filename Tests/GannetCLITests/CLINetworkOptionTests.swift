import Foundation
import GannetTestSupport
import Testing

/// `--proxy`, `--timeout` and `--max-time`, `--verify`, `--cert-key-pass`: each against the
/// server that shows it took effect (the proxy's log, the fault server's slow routes, the TLS
/// endpoints, nginx's mutual-TLS endpoint).
@Suite("gannet network options")
struct CLINetworkOptionTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    var ca: String { servers.certificates.caBundle }

    func tls(_ variant: TLSVariant, _ path: String) -> String {
        servers.tlsEndpoint(variant).absoluteString + path
    }

    func proxyLog() -> String {
        String(decoding: FileManager.default.contents(atPath: servers.proxyLog) ?? Data(), as: UTF8.self)
    }

    // MARK: --proxy

    @Test func proxyCarriesTheRequest() async throws {
        let marker = "via-proxy-\(UUID().uuidString)"
        let result = try await GannetBinary.run([
            "--proxy", servers.proxy.absoluteString, "--check-status", "\(httpbin)/get", "m==\(marker)",
        ])
        #expect(result.status == 0, "\(result.err)")
        #expect((try result.json()["args"] as? [String: Any])?["m"] as? String == marker)
        #expect(
            proxyLog().contains("GET \(httpbin)/get?m=\(marker) HTTP/1.1"),
            "the absolute-form request reached the proxy"
        )
    }

    @Test func httpieSchemeFormPicksTheProxyByScheme() async throws {
        let proxy = servers.proxy.absoluteString
        let used = "scheme-proxy-\(UUID().uuidString)"
        let http = try await GannetBinary.run(["--proxy", "http:\(proxy)", "\(httpbin)/get", "m==\(used)"])
        #expect(http.status == 0, "\(http.err)")
        #expect(proxyLog().contains(used))
        // A proxy for https URLs only is not used for an http URL.
        let unused = "scheme-direct-\(UUID().uuidString)"
        let direct = try await GannetBinary.run(["--proxy", "https:\(proxy)", "\(httpbin)/get", "m==\(unused)"])
        #expect(direct.status == 0, "\(direct.err)")
        #expect((try direct.json()["args"] as? [String: Any])?["m"] as? String == unused)
        #expect(!proxyLog().contains(unused))
        // Over TLS the proxy sees only the CONNECT tunnel.
        let tunnel = try await GannetBinary.run([
            "--proxy", "https:\(proxy)", "--cacert", ca, "--check-status", tls(.good, "small"),
        ])
        #expect(tunnel.status == 0, "\(tunnel.err)")
        #expect(tunnel.out == "ok")
        #expect(proxyLog().contains("CONNECT localhost:\(servers.tlsEndpoint(.good).port ?? 0)"))
    }

    /// The environment's proxy (no `--proxy`), which the library reads once per manager with
    /// libcurl's rules (docs/core.md, `proxy`): each case names the variables set to the test
    /// proxy (or `NAME=value`), and whether an `http://` request went through it. Every other
    /// proxy variable is set empty, which counts as unset, so the runner's own never leak in.
    @Test(arguments: [
        (["http_proxy"], true),
        (["all_proxy"], true),
        (["ALL_PROXY"], true),
        (["HTTP_PROXY"], false),  // never the uppercase name for http: httpoxy, CVE-2016-5385
        (["https_proxy", "HTTPS_PROXY"], false),  // proxies for https URLs only
        (["http_proxy", "no_proxy=127.0.0.1"], false),
        (["http_proxy", "NO_PROXY=127.0.0.1"], false),
    ])
    func theEnvironmentsProxyFollowsCurlsRules(variables: [String], throughProxy: Bool) async throws {
        let names = [
            "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
        ]
        var environment = Dictionary(uniqueKeysWithValues: names.map { ($0, "") })
        for variable in variables {
            let parts = variable.split(separator: "=", maxSplits: 1).map(String.init)
            environment[parts[0]] = parts.count == 2 ? parts[1] : servers.proxy.absoluteString
        }
        let marker = "env-proxy-\(UUID().uuidString)"
        let result = try await GannetBinary.run(
            executable: GannetBinary.location(),
            arguments: ["--check-status", "\(httpbin)/get", "m==\(marker)"],
            in: nil,
            timeout: .seconds(60),
            environment: environment
        )
        #expect(result.status == 0, "\(variables): \(result.err)")
        #expect(proxyLog().contains(marker) == throughProxy, "\(variables)")
    }

    @Test func authenticatingProxyTakesCredentialsInItsURL() async throws {
        let (user, password) = servers.proxyCredentials
        var components = try #require(URLComponents(url: servers.authenticatingProxy, resolvingAgainstBaseURL: false))
        let refused = try await GannetBinary.run([
            "--proxy", servers.authenticatingProxy.absoluteString, "--check-status", "\(httpbin)/get",
        ])
        #expect(refused.status == 4, "the proxy's 407: \(refused.err)")
        components.user = user
        components.password = password
        let proxy = try #require(components.url)
        let accepted = try await GannetBinary.run(["--proxy", proxy.absoluteString, "--check-status", "\(httpbin)/get"])
        #expect(accepted.status == 0, "\(accepted.err)")
    }

    @Test(arguments: ["ftp://proxy:21", "not a url", "http:", "--"])
    func badProxiesAreUsageErrors(_ proxy: String) async throws {
        let result = try await GannetBinary.run(["--proxy=\(proxy)", "\(httpbin)/get"])
        #expect(result.status == 2, "\(result.err)")
    }

    // MARK: --timeout and --max-time

    @Test func idleTimeoutFiresOnSilenceNotOnASlowBody() async throws {
        let stalled = try await GannetBinary.run(["--timeout", "1", "\(fault)/stall"])
        #expect(stalled.status == 2, "\(stalled.err)")
        #expect(stalled.err.contains("timed out"))
        // 20 bytes, one every 100 ms: never 5 s without a byte, so the idle timeout never fires.
        let trickle = try await GannetBinary.run(["--timeout", "5", "\(fault)/slow-body?bytes=20&interval_ms=100"])
        #expect(trickle.status == 0, "\(trickle.err)")
        #expect(trickle.out == String(repeating: "d", count: 20))
    }

    @Test func maxTimeBoundsTheWholeExchange() async throws {
        // 600 bytes, one every 100 ms (a minute in all), with bytes always moving: only the
        // total limit can stop it, so a timeout error proves it did (no clock is read: a
        // loaded machine cannot fail this).
        let result = try await GannetBinary.run([
            "--max-time", "1.5", "--timeout", "30", "\(fault)/slow-body?bytes=600&interval_ms=100",
        ])
        #expect(result.status == 2, "\(result.err)")
        #expect(result.err.hasPrefix("gannet: error: "))
        #expect(result.err.contains("timed out") || result.err.contains("timeout"), "\(result.err)")
        #expect(try await GannetBinary.run(["--max-time", "0", "http://x"]).status == 2)
    }

    // MARK: --verify

    @Test func verifyNoTrustsAnyServer() async throws {
        #expect(try await GannetBinary.run([tls(.selfSigned, "small")]).status == 1)
        let insecure = try await GannetBinary.run(["--verify=no", tls(.selfSigned, "small")])
        #expect(insecure.status == 0, "\(insecure.err)")
        #expect(insecure.out == "ok")
        #expect(try await GannetBinary.run(["--verify", "no", tls(.wrongHost, "small")]).status == 0)
        #expect(try await GannetBinary.run(["--verify=false", tls(.expired, "small")]).status == 0)
    }

    @Test func verifyPathIsTheCABundle() async throws {
        let trusted = try await GannetBinary.run(["--verify=\(ca)", tls(.good, "small")])
        #expect(trusted.status == 0, "\(trusted.err)")
        #expect(trusted.out == "ok")
        #expect(
            try await GannetBinary.run(["--verify=yes", tls(.good, "small")]).status == 1,
            "the system store does not know the test CA"
        )
        #expect(
            try await GannetBinary.run(["--verify=\(ca)", "--cacert", ca, tls(.good, "small")]).status == 0,
            "the same file twice"
        )
        let clash = try await GannetBinary.run([
            "--verify=\(ca)", "--cacert", servers.certificates.leaf(.good).pem, tls(.good, "small"),
        ])
        #expect(clash.status == 2)
        #expect(clash.err.contains("two CA files"))
        #expect(try await GannetBinary.run(["--verify=/nonexistent/ca.pem", tls(.good, "small")]).status == 1)
    }

    // MARK: --cert-key-pass

    @Test func encryptedClientKeyNeedsItsPassword() async throws {
        let certificates = servers.certificates
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-key-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let encrypted = folder.appendingPathComponent("client-encrypted.pem").path
        try await Self.openssl([
            "pkey", "-in", certificates.clientKey, "-aes-256-cbc", "-passout", "pass:s3cret", "-out", encrypted,
        ])
        #expect(try String(contentsOfFile: encrypted, encoding: .utf8).contains("ENCRYPTED PRIVATE KEY"))

        let base = ["--cacert", ca, "--cert", certificates.clientCertificate, "--key", encrypted, "--check-status"]
        let right = try await GannetBinary.run(base + ["--cert-key-pass", "s3cret", tls(.mutualTLS, "small")])
        #expect(right.status == 0, "\(right.err)")
        #expect(right.out == "ok")
        let wrong = try await GannetBinary.run(base + ["--cert-key-pass", "nope", tls(.mutualTLS, "small")])
        #expect(wrong.status == 1)
        #expect(wrong.err.hasPrefix("gannet: error: cannot use the client certificate"))
        #expect(wrong.err.lowercased().contains("password"), "\(wrong.err)")
        let missing = try await GannetBinary.run(base + [tls(.mutualTLS, "small")])
        #expect(missing.status == 1)
        #expect(missing.err.lowercased().contains("password"), "\(missing.err)")

        let pkcs12 = try await GannetBinary.run([
            "--cacert", ca, "--cert", certificates.clientPKCS12, "--cert-key-pass", certificates.clientPKCS12Password,
            "--check-status", tls(.mutualTLS, "small"),
        ])
        #expect(pkcs12.status == 0, "\(pkcs12.err)")
        let alone = try await GannetBinary.run(["--cert-key-pass", "x", tls(.mutualTLS, "small")])
        #expect(alone.status == 2, "\(alone.err)")
    }

    static func openssl(_ arguments: [String]) async throws {
        let result = try await GannetBinary.run(
            executable: URL(fileURLWithPath: "/usr/bin/openssl"),
            arguments: arguments,
            in: nil,
            timeout: .seconds(60)
        )
        try #require(result.status == 0, "openssl \(arguments.joined(separator: " ")): \(result.err)")
    }
}
