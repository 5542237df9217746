import Foundation
import GannetSecurity
import GannetTestSupport
import Synchronization
import Testing

/// Issue 16: requests through the test proxies (Tests/Servers/proxy_server.py). Through a
/// `CONNECT` tunnel the pinning evaluator judges the origin's certificate (the proxy speaks
/// plain HTTP and has none), and proxy credentials reach the proxy only: never the origin,
/// inside the tunnel or after a redirect.
@Suite("End to end: proxies, CONNECT with pinning, proxy credentials")
struct ProxyEndToEndTests {
    /// Records what each handshake presented, then lets `inner` decide.
    final class RecordingEvaluator: ServerTrustEvaluating {
        let inner: any ServerTrustEvaluating
        private let seen = Mutex<[ServerTrust]>([])

        init(_ inner: any ServerTrustEvaluating) { self.inner = inner }

        var trusts: [ServerTrust] { seen.withLock { $0 } }
        var requiresSecureTransport: Bool { inner.requiresSecureTransport }

        func evaluate(_ trust: ServerTrust) throws {
            seen.withLock { $0.append(trust) }
            try inner.evaluate(trust)
        }
    }

    /// The authenticating proxy's URL with its credentials in it, how a configuration names them.
    private func authenticatingProxy(_ servers: TestServers) throws -> URL {
        var components = try #require(URLComponents(url: servers.authenticatingProxy, resolvingAgainstBaseURL: false))
        components.user = servers.proxyCredentials.user
        components.password = servers.proxyCredentials.password
        return try #require(components.url)
    }

    private func proxyLog(_ servers: TestServers) -> String {
        String(decoding: FileManager.default.contents(atPath: servers.proxyLog) ?? Data(), as: UTF8.self)
    }

    private func startOrigin(_ servers: TestServers) async throws -> (HelperServer, Int) {
        let good = servers.certificates.leaf(.good)
        let other = servers.certificates.leaf(.rsa)
        let server = try HelperServer(
            script: "tls_fault_server.py",
            arguments: [good.chain ?? good.pem, good.privateKey, other.chain ?? other.pem, other.privateKey]
        )
        return (server, try #require(try await server.ports()["faults"]))
    }

    @Test func aPinnedRequestThroughCONNECTIsJudgedOnTheOriginsCertificate() async throws {
        let servers = try EndToEnd.servers()
        let (origin, port) = try await startOrigin(servers)
        defer { origin.stop() }
        let proxy = try authenticatingProxy(servers)
        let goodLeaf = try EndToEnd.leaf(.good)

        let pinned = RecordingEvaluator(
            PublicKeysTrustEvaluator(pins: try PinSet([goodLeaf.publicKeyPin]), trustStore: try EndToEnd.testCA())
        )
        let manager = EndToEnd.manager(pinned) { $0.proxy = .url(proxy) }
        defer { manager.invalidateAndCancel() }
        let response = await EndToEnd.get(URL(string: "https://localhost:\(port)/echo")!, with: manager)
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")

        // The tunnel went through the authenticating proxy, with the credentials...
        let log = proxyLog(servers)
        #expect(log.contains("CONNECT localhost:\(port) HTTP/1.1"), "no CONNECT in the proxy's log")
        // ...the evaluator saw the origin, its host, port and leaf...
        let trust = try #require(pinned.trusts.first)
        #expect(pinned.trusts.count == 1)
        #expect(trust.host == "localhost" && trust.port == port)
        #expect(trust.certificateChain.first == goodLeaf.derEncoded)
        // ...and the origin never saw the proxy's credentials.
        let seenByOrigin = String(decoding: response.data ?? Data(), as: UTF8.self)
        #expect(seenByOrigin.hasPrefix("GET /echo HTTP/1.1"), "\(seenByOrigin)")
        #expect(!seenByOrigin.lowercased().contains("proxy-authorization"), "\(seenByOrigin)")

        // The same tunnel with a pin that does not match the origin: refused in the handshake.
        let wrong = RecordingEvaluator(
            PublicKeysTrustEvaluator(
                pins: try PinSet([try EndToEnd.certificate("untrustedRootCA").publicKeyPin]),
                trustStore: try EndToEnd.testCA()
            )
        )
        let refusing = EndToEnd.manager(wrong) { $0.proxy = .url(proxy) }
        defer { refusing.invalidateAndCancel() }
        let refused = await EndToEnd.get(URL(string: "https://localhost:\(port)/echo")!, with: refusing)
        #expect(Handshake(refused) == .refused(.pinMismatch, .serverCertificateUntrusted), "\(Handshake(refused))")
        #expect(wrong.trusts.first?.certificateChain.first == goodLeaf.derEncoded)
    }

    /// A `Proxy-Authorization` the caller sets on an `https` request is for the proxy: it
    /// opens the tunnel (the proxy answers `407` without it) and never reaches the origin inside
    /// it. libcurl sends a request's own headers to the origin only, so without Gannet moving
    /// the header to the proxy's list the `CONNECT` went without it and the origin got it.
    @Test func aCallersProxyAuthorizationOpensTheTunnelAndNeverReachesTheOrigin() async throws {
        let servers = try EndToEnd.servers()
        let (origin, port) = try await startOrigin(servers)
        defer { origin.stop() }
        let manager = EndToEnd.manager(
            PublicKeysTrustEvaluator(
                pins: try PinSet([try EndToEnd.leaf(.good).publicKeyPin]),
                trustStore: try EndToEnd.testCA()
            )
        ) { $0.proxy = .url(servers.authenticatingProxy) }
        defer { manager.invalidateAndCancel() }
        let credentials = "\(servers.proxyCredentials.user):\(servers.proxyCredentials.password)"
        let header = "Basic " + Data(credentials.utf8).base64EncodedString()
        let marker = "m\(UUID().uuidString.replacingOccurrences(of: "-", with: ""))"
        var request = URLRequest(url: URL(string: "https://localhost:\(port)/echo?\(marker)")!)
        request.setValue(header, forHTTPHeaderField: "Proxy-Authorization")
        let response = await manager.response(for: request, serializer: .passthrough)
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        let seenByOrigin = String(decoding: response.data ?? Data(), as: UTF8.self)
        #expect(seenByOrigin.hasPrefix("GET /echo?\(marker) HTTP/1.1"), "\(seenByOrigin)")
        #expect(!seenByOrigin.lowercased().contains("proxy-authorization"), "\(seenByOrigin)")
        #expect(!seenByOrigin.contains(header), "\(seenByOrigin)")
        let log = proxyLog(servers)
        let connect = try #require(log.range(of: "CONNECT localhost:\(port) HTTP/1.1"), "no CONNECT in the proxy's log")
        #expect(log[connect.upperBound...].prefix(400).contains(header), "the CONNECT went without the caller's header")
    }

    /// A redirect from a host reached through the proxy to one reached directly (`bypass`):
    /// the proxy got the credentials, the origin after the redirect gets neither them nor a
    /// `Proxy-Authorization` header the caller set.
    @Test(arguments: [false, true])
    func proxyCredentialsNeverFollowARedirect(callerSetsTheHeader: Bool) async throws {
        let servers = try EndToEnd.servers()
        let proxy = try authenticatingProxy(servers)
        let faultPort = try #require(servers.fault.port)
        let marker = "m\(UUID().uuidString.replacingOccurrences(of: "-", with: ""))"
        let target = "http://localhost:\(faultPort)/echo?\(marker)"
        let start = servers.url(.redirect(to: target, status: 302))
        #expect(start.host == "127.0.0.1")

        var configuration = SessionConfiguration.default
        configuration.proxy = .url(proxy, bypass: "localhost")
        let manager = SessionManager(configuration: configuration)
        defer { manager.invalidateAndCancel() }
        var request = URLRequest(url: start)
        let expected =
            "Basic "
            + Data("\(servers.proxyCredentials.user):\(servers.proxyCredentials.password)".utf8)
            .base64EncodedString()
        if callerSetsTheHeader {
            // The caller's header takes the place of the configuration's credentials (as curl's
            // `-H` does over `--proxy-user`), so it must be one the proxy accepts.
            request.setValue(expected, forHTTPHeaderField: "Proxy-Authorization")
        }
        let response = await manager.response(for: request, serializer: .passthrough)
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        let seenByOrigin = String(decoding: response.data ?? Data(), as: UTF8.self)
        #expect(
            seenByOrigin.hasPrefix("GET /echo?\(marker) HTTP/1.1"),
            "the redirect was not followed: \(seenByOrigin)"
        )
        #expect(!seenByOrigin.lowercased().contains("proxy-authorization"), "\(seenByOrigin)")
        // The first hop went through the proxy, with the configured credentials.
        let log = proxyLog(servers)
        let hop = try #require(log.range(of: "GET \(start.absoluteString) HTTP/1.1"), "the first hop skipped the proxy")
        #expect(log[hop.upperBound...].prefix(600).contains(expected))
    }
}
