import Foundation
import GannetTestSupport
import Testing

/// SECURITY-CASES 42 for the command: a proxy URL's password and a token in a URL's user part
/// never reach standard error, whether the command refuses the proxy, libcurl does, or a real
/// proxy refuses the credential.
@Suite("gannet keeps secrets out of its messages")
struct CLISecretTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    static let password = "pr0xy-pa55w0rd"

    /// A port out of range (libcurl: "Unsupported proxy syntax in '…'"), and a proxy without a
    /// scheme, which the command refuses as a usage error quoting what it was given.
    static let unusableProxies: [(proxy: String, status: Int32)] = [
        ("http://gannet:\(password)@127.0.0.1:99999", 1),
        ("http://\(password)@127.0.0.1:99999", 1),
        ("gannet:\(password)@127.0.0.1:8080", 2),
    ]

    @Test(arguments: unusableProxies)
    func anUnusableProxysPasswordIsNotPrinted(proxy: String, status: Int32) async throws {
        let result = try await GannetBinary.run(["--proxy", proxy, "\(httpbin)/get"])
        #expect(result.status == status, "\(result.err)")
        #expect(result.err.hasPrefix("gannet: error: "), "\(result.err)")
        #expect(result.err.contains("***"), "the message shows where the secret was: \(result.err)")
        #expect(!result.err.contains(Self.password), "\(result.err)")
        #expect(!result.out.contains(Self.password))
    }

    /// A proxy from the environment, which libcurl reads and quotes itself: with a scheme,
    /// and as a bare `TOKEN@host:port` that only the string gannet knows libcurl took can find.
    @Test(arguments: ["http://gannet:\(password)@127.0.0.1:99999", "\(password)@127.0.0.1:99999"])
    func anEnvironmentProxysSecretIsNotPrinted(proxy: String) async throws {
        let result = try await GannetBinary.run(
            executable: GannetBinary.location(),
            arguments: ["\(httpbin)/get"],
            in: nil,
            timeout: .seconds(60),
            environment: ["http_proxy": proxy, "no_proxy": "", "NO_PROXY": ""]
        )
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains("proxy"), "libcurl's message about the proxy: \(result.err)")
        #expect(!result.err.contains(Self.password), "\(result.err)")
    }

    /// The authenticating proxy (Tests/Servers/proxy_server.py) refuses a wrong password for
    /// the tunnel to an https origin.
    @Test func aRealProxyRefusingThePasswordDoesNotPrintIt() async throws {
        var components = try #require(URLComponents(url: servers.authenticatingProxy, resolvingAgainstBaseURL: false))
        components.user = servers.proxyCredentials.user
        components.password = Self.password
        let proxy = try #require(components.url).absoluteString
        let origin = servers.tlsEndpoint(.good).absoluteString + "small"
        let result = try await GannetBinary.run(["--proxy", proxy, "--cacert", servers.certificates.caBundle, origin])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.hasPrefix("gannet: error: "), "\(result.err)")
        #expect(!result.err.contains(Self.password), "\(result.err)")
    }

    @Test func aTokenInTheURLsUserPartIsNotPrinted() async throws {
        let token = "t0ken-in-the-user-part"
        let result = try await GannetBinary.run(["http://\(token)@127.0.0.1:1/get"])
        #expect(result.status == 1, "\(result.err)")
        #expect(!result.err.contains(token), "\(result.err)")
    }
}
