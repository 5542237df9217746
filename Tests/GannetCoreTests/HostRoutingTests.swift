import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 28, "Reaching a host another way": ``SessionConfiguration/Routing``'s syntax checks,
/// and `resolve`, `connectTo` and `unixSocketPath` against the real servers, with TLS still
/// judging the URL's host and managers with different routing kept apart.
@Suite("Host routing: resolve, connect-to, Unix sockets")
struct HostRoutingTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    typealias Resolve = SessionConfiguration.Routing.Resolve
    typealias ConnectTo = SessionConfiguration.Routing.ConnectTo

    /// Records the host and port every evaluation was asked about, and trusts nothing it was
    /// not told to (a pin of one host name, as a pinning policy judges a name).
    final class HostRecorder: ServerTrustEvaluating {
        let trustedHost: String
        let seen = Mutex<[String]>([])
        init(trusting host: String) { trustedHost = host }
        func evaluate(_ trust: ServerTrust) throws {
            seen.withLock { $0.append("\(trust.host):\(trust.port)") }
            guard trust.host == trustedHost else {
                throw GannetError(.serverTrustRejected, "pinned for \(trustedHost), not \(trust.host)")
            }
        }
    }

    func port(_ url: URL) -> Int { url.port ?? 0 }

    // MARK: Syntax

    @Test func curlSyntaxRoundTrips() throws {
        let resolve = try Resolve(parsing: "Example.COM:8443:127.0.0.1,[::1]")
        #expect(resolve.host == "example.com")
        #expect(resolve.port == 8443)
        #expect(resolve.addresses == ["127.0.0.1", "::1"])
        #expect(resolve.description == "example.com:8443:127.0.0.1,[::1]")
        #expect(try Resolve(parsing: "*:443:10.0.0.1").host == "*")

        let connect = try ConnectTo(parsing: "example.com:443:[::1]:8443")
        #expect(connect.host == "example.com" && connect.port == 443)
        #expect(connect.targetHost == "::1" && connect.targetPort == 8443)
        #expect(connect.description == "example.com:443:[::1]:8443")
        let wildcard = try ConnectTo(parsing: "::other.example:")
        #expect(wildcard.host == nil && wildcard.port == nil && wildcard.targetHost == "other.example")
        #expect(wildcard.targetPort == nil)
        #expect(wildcard.description == "::other.example:")
    }

    @Test(arguments: [
        "", "example.com", "example.com:443", "example.com:0:127.0.0.1", "example.com:65536:127.0.0.1",
        "example.com:+1:127.0.0.1", "example.com:443:", "example.com:443:not-an-ip", "example.com:443:127.0.0.1,",
        "exa mple.com:443:127.0.0.1", "example.com\r\n:443:127.0.0.1", "[::1]:443:127.0.0.1",
        "-example.com:443:1.2.3.4",
        "example.com:443:1.2.3.4\n",
    ])
    func malformedResolveEntriesThrow(_ text: String) {
        #expect {
            try Resolve(parsing: text)
        } throws: { error in
            (error as? GannetError)?.code == .invalidConfiguration
        }
    }

    @Test(arguments: [
        "", "a:1:b", "a:1:b:2:3", "a:x:b:2", "a:1:b:70000", "[::1:443:b:1", "[nope]:443:b:1", "a b:1:c:2",
        "a:1:c\n:2", "a:1:[::1]x:2", "a]:1:b:2",
    ])
    func malformedConnectToEntriesThrow(_ text: String) {
        #expect {
            try ConnectTo(parsing: text)
        } throws: { error in
            (error as? GannetError)?.code == .invalidConfiguration
        }
    }

    @Test func anUnusableSocketPathFailsTheTaskBeforeAnythingIsSent() async throws {
        for path in ["", "/tmp/" + String(repeating: "s", count: 200), "/tmp/a\0b"] {
            let manager = testManager(servers) { $0.routing.unixSocketPath = path }
            let response = await perform(manager, URLRequest(url: servers.nginx.adding("/small")))
            #expect(gannetCode(response.error) == .invalidConfiguration, "\(String(describing: response.error))")
            #expect(response.response == nil)
        }
    }

    // MARK: resolve

    @Test func resolveSendsAnUnknownNameToTheGivenAddress() async throws {
        let marker = UUID().uuidString
        let url = try #require(URL(string: "http://gannet-resolve.invalid:\(port(servers.httpbin))/headers?\(marker)"))
        let manager = testManager(servers) {
            $0.routing.resolve = [try! Resolve(parsing: "gannet-resolve.invalid:\(port(servers.httpbin)):127.0.0.1")]
        }
        let response = await perform(manager, URLRequest(url: url))
        #expect(response.error == nil, "\(String(describing: response.error))")
        let headers = try #require(try json(response.data)["headers"] as? [String: String])
        #expect(headers["Host"] == "gannet-resolve.invalid:\(port(servers.httpbin))")
    }

    @Test func resolveOverridesTheAddressOfATLSHostAndTheCertificateIsJudgedForTheName() async throws {
        let endpoint = servers.tlsEndpoint(.good)
        // localhost to another loopback address where nothing listens: the entry is used.
        let elsewhere = testManager(servers) {
            $0.routing.resolve = [try! Resolve(host: "localhost", port: port(endpoint), addresses: ["127.0.0.2"])]
        }
        let refused = await perform(elsewhere, URLRequest(url: endpoint.adding("/small")))
        #expect((refused.error as? URLError)?.code == .cannotConnectToHost, "\(String(describing: refused.error))")

        let recorder = HostRecorder(trusting: "localhost")
        let manager = testManager(servers) {
            $0.routing.resolve = [try! Resolve(host: "localhost", port: port(endpoint), addresses: ["127.0.0.1"])]
            $0.tls.serverTrustEvaluator = recorder
        }
        let response = await perform(manager, URLRequest(url: endpoint.adding("/small")))
        #expect(response.error == nil, "\(String(describing: response.error))")
        #expect(response.data == Data("ok".utf8))
        #expect(recorder.seen.withLock { $0 } == ["localhost:\(port(endpoint))"])
    }

    @Test func aNameResolvedToTheServerStillFailsVerificationForTheName() async throws {
        let endpoint = servers.tlsEndpoint(.good)
        let marker = UUID().uuidString
        let url = try #require(URL(string: "https://gannet-other.invalid:\(port(endpoint))/small?\(marker)"))
        let resolve = try Resolve(host: "gannet-other.invalid", port: port(endpoint), addresses: ["127.0.0.1"])
        // The default verification: the certificate names localhost, not the URL's host.
        let verified = testManager(servers) { $0.routing.resolve = [resolve] }
        let rejected = await perform(verified, URLRequest(url: url))
        #expect(
            (rejected.error as? URLError)?.code == .serverCertificateHasUnknownRoot
                || (rejected.error as? URLError)?.code == .serverCertificateUntrusted,
            "\(String(describing: rejected.error))"
        )
        // An evaluator pinned for localhost is asked about the URL's host, and refuses it.
        let recorder = HostRecorder(trusting: "localhost")
        let pinned = testManager(servers) {
            $0.routing.resolve = [resolve]
            $0.tls.serverTrustEvaluator = recorder
        }
        let refused = await perform(pinned, URLRequest(url: url))
        #expect(gannetCode(refused.error) == .serverTrustRejected, "\(String(describing: refused.error))")
        #expect(recorder.seen.withLock { $0 } == ["gannet-other.invalid:\(port(endpoint))"])
        #expect(servers.accessLogLines(containing: marker).isEmpty, "no request may follow a refused handshake")
    }

    // MARK: connect-to

    @Test func connectToReachesAnotherPortAndKeepsTheURLsHostForTLS() async throws {
        let endpoint = servers.tlsEndpoint(.good)
        // Port 1 of localhost has no server; the connection goes to the TLS endpoint, and the
        // certificate (for localhost) is judged for the URL's host.
        let url = try #require(URL(string: "https://localhost:1/small"))
        let recorder = HostRecorder(trusting: "localhost")
        let manager = testManager(servers) {
            $0.routing.connectTo = [
                try! ConnectTo(host: "localhost", port: 1, targetHost: "127.0.0.1", targetPort: port(endpoint))
            ]
            $0.tls.serverTrustEvaluator = recorder
        }
        let response = await perform(manager, URLRequest(url: url))
        #expect(response.error == nil, "\(String(describing: response.error))")
        #expect(response.data == Data("ok".utf8))
        #expect(recorder.seen.withLock { $0 } == ["localhost:1"])

        // The default verification too.
        let verified = testManager(servers) {
            $0.routing.connectTo = [try! ConnectTo(parsing: "localhost:1:127.0.0.1:\(port(endpoint))")]
        }
        let plain = await perform(verified, URLRequest(url: url))
        #expect(plain.error == nil, "\(String(describing: plain.error))")
        #expect(plain.data == Data("ok".utf8))
    }

    @Test func connectToFromAnotherNameIsJudgedForThatName() async throws {
        let endpoint = servers.tlsEndpoint(.good)
        let url = try #require(URL(string: "https://gannet-connect.invalid/small"))
        let recorder = HostRecorder(trusting: "localhost")
        let manager = testManager(servers) {
            $0.routing.connectTo = [try! ConnectTo(parsing: "gannet-connect.invalid:443:localhost:\(port(endpoint))")]
            $0.tls.serverTrustEvaluator = recorder
        }
        let response = await perform(manager, URLRequest(url: url))
        #expect(gannetCode(response.error) == .serverTrustRejected, "\(String(describing: response.error))")
        #expect(recorder.seen.withLock { $0 } == ["gannet-connect.invalid:443"])
    }

    @Test func connectToKeepsTheURLsHostInTheHostHeader() async throws {
        let url = try #require(URL(string: "http://gannet-connect.invalid:8080/headers"))
        let manager = testManager(servers) {
            $0.routing.connectTo = [
                try! ConnectTo(parsing: "gannet-connect.invalid:8080:127.0.0.1:\(port(servers.httpbin))")
            ]
        }
        let response = await perform(manager, URLRequest(url: url))
        #expect(response.error == nil, "\(String(describing: response.error))")
        let headers = try #require(try json(response.data)["headers"] as? [String: String])
        #expect(headers["Host"] == "gannet-connect.invalid:8080")
    }

    // MARK: Unix socket

    @Test func aUnixSocketCarriesTheRequestAndTheURLGivesTheHost() async throws {
        let manager = testManager(servers) { $0.routing.unixSocketPath = servers.nginxUnixSocket }
        let response = await perform(manager, URLRequest(url: URL(string: "http://docker/version")!))
        #expect(response.error == nil, "\(String(describing: response.error))")
        let version = try json(response.data)
        #expect(version["Version"] as? String == "gannet-test")
        #expect(version["Host"] as? String == "docker")
        #expect(response.response?.statusCode == 200)
    }

    @Test func aMissingSocketIsACannotConnectError() async throws {
        let manager = testManager(servers) { $0.routing.unixSocketPath = servers.directory + "/no-such.sock" }
        let response = await perform(manager, URLRequest(url: URL(string: "http://docker/version")!))
        #expect((response.error as? URLError)?.code == .cannotConnectToHost, "\(String(describing: response.error))")
    }

    // MARK: Pools

    /// The same URL from three managers, interleaved: each manager's routing sends every one of
    /// its requests (new connections and reused ones alike) where it says.
    @Test func managersWithDifferentRoutingNeverShareAConnection() async throws {
        let url = try #require(URL(string: "http://localhost:\(port(servers.nginx))/echo"))
        let direct = testManager(servers)
        let toHTTPBin = testManager(servers) {
            $0.routing.connectTo = [
                try! ConnectTo(parsing: "localhost:\(port(servers.nginx)):127.0.0.1:\(port(servers.httpbin))")
            ]
        }
        let socket = testManager(servers) { $0.routing.unixSocketPath = servers.nginxUnixSocket }
        let version = URL(string: "http://localhost:\(port(servers.nginx))/version")!
        for _ in 0..<4 {
            let nginx = await perform(direct, URLRequest(url: url))
            #expect(String(decoding: nginx.data ?? Data(), as: UTF8.self) == "GET /echo HTTP/1.1\n")
            // httpbin has no /echo: its 404 page, not nginx's line.
            let httpbin = await perform(toHTTPBin, URLRequest(url: url))
            #expect(httpbin.response?.statusCode == 404)
            #expect(httpbin.response?.value(forHTTPHeaderField: "Server")?.contains("gunicorn") == true)
            // Only the socket's nginx server answers /version.
            let overSocket = await perform(socket, URLRequest(url: version))
            #expect(overSocket.response?.statusCode == 200)
            #expect(try json(overSocket.data)["Version"] as? String == "gannet-test")
            let notSocket = await perform(direct, URLRequest(url: version))
            #expect(notSocket.response?.statusCode == 404)
        }
    }

    /// Within one manager, a host the routing sends elsewhere and one it leaves alone, both on
    /// 127.0.0.1, keep to their own servers.
    @Test func oneManagerKeepsRoutedAndDirectConnectionsApart() async throws {
        let nginxPort = port(servers.nginx)
        let manager = testManager(servers) {
            $0.routing.connectTo = [
                try! ConnectTo(parsing: "localhost:\(nginxPort):127.0.0.1:\(port(servers.httpbin))")
            ]
        }
        for _ in 0..<4 {
            let routed = await perform(manager, URLRequest(url: URL(string: "http://localhost:\(nginxPort)/echo")!))
            #expect(routed.response?.statusCode == 404)
            let direct = await perform(manager, URLRequest(url: URL(string: "http://127.0.0.1:\(nginxPort)/echo")!))
            #expect(String(decoding: direct.data ?? Data(), as: UTF8.self) == "GET /echo HTTP/1.1\n")
        }
    }
}
