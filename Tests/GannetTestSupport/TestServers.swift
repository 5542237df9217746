public import GannetCore
import Synchronization

/// The real servers every Gannet test talks to, on loopback, started once per test process.
///
/// ```swift
/// let servers = try TestServers.shared()
/// var configuration = SessionConfiguration.default
/// configuration.tls.caFile = servers.certificates.caBundle
/// let url = servers.nginxTLS.appendingPathComponent("small")   // "ok"
/// ```
///
/// The supervisor (Tests/Servers/testservers.py) runs httpbin under gunicorn, nginx over HTTP and
/// TLS with certificates generated for the run, and the fault server; it stops them all when this
/// process exits, however it exits. Routes and certificates: Tests/Servers/README.md.
public final class TestServers: Sendable {
    /// httpbin under gunicorn, `http://127.0.0.1:P/`.
    public let httpbin: URL
    /// The same httpbin on a second port, another origin for cross-origin tests.
    public let httpbinAlt: URL
    /// Plain nginx, `http://127.0.0.1:R/`: `/small` ("ok"), `/files/1m.bin`, `/files/10m.bin`,
    /// `/upload` (POST of any size, answered after the whole body is read), `/echo`.
    public let nginx: URL
    /// nginx over TLS with HTTP/2, `https://localhost:S/`, serving the good chain; same routes as ``nginx``.
    public let nginxTLS: URL
    /// nginx speaking cleartext HTTP/2 with prior knowledge only (HTTP/1.1 requests fail); same routes.
    public let nginxH2C: URL
    /// The path of nginx's Unix domain socket (cleartext HTTP/1.1): Docker's `GET /version`
    /// (JSON naming `"Version":"gannet-test"` and the request's `Host`), and the same routes as
    /// ``nginx``.
    public let nginxUnixSocket: String
    /// The fault server, `http://127.0.0.1:T/`: truncated bodies, bad chunking, resets, stalls, floods, redirects.
    public let fault: URL
    /// A port that only counts the connections it receives (XXE tests: prove nothing connected).
    public let canaryURL: URL
    /// A forward proxy (absolute-form requests and `CONNECT`) that reaches loopback targets only.
    public let proxy: URL
    /// The same proxy, answering `407` unless given ``proxyCredentials`` (Basic).
    public let authenticatingProxy: URL
    /// The user and password ``authenticatingProxy`` accepts.
    public let proxyCredentials: (user: String, password: String)
    /// Every request head either proxy received, credentials included, after a `--- port P` line.
    public let proxyLog: String
    /// Paths of the certificates generated for this run.
    public let certificates: TestCertificates
    /// nginx's access log: one line per request, with the server port, request line, status,
    /// request length, bytes sent, connection number and requests on it, TLS version and user agent.
    public let nginxAccessLog: String
    /// httpbin's access log (gunicorn's): one line per request, with the request line and status.
    public let httpbinAccessLog: String
    /// nginx's error log (TLS handshake failures are logged here at `info` level).
    public let nginxErrorLog: String
    /// The fault server's log: one `METHOD target` line per request, one line per canary connection.
    public let faultLog: String
    /// The folder nginx serves under `/files/`; benchmarks may add larger files to it.
    public let filesDirectory: String
    /// `/files/1m.bin` on disk (1 MiB of random bytes), to compare a download with.
    public let oneMegabyteFile: String
    /// `/files/10m.bin` on disk (10 MiB of random bytes).
    public let tenMegabyteFile: String
    /// The supervisor's temporary folder, deleted when the test process exits.
    public let directory: String
    private let tlsEndpoints: [TLSVariant: URL]

    init(manifest m: ServerManifest) throws(TestServerError) {
        var endpoints: [TLSVariant: URL] = [:]
        var leaves: [TLSVariant: CertificateFiles] = [:]
        for variant in TLSVariant.allCases {
            guard let url = m.tls[variant.rawValue], let leaf = m.tlsCertificates[variant.rawValue] else {
                throw TestServerError(
                    "The test server supervisor reported no TLS endpoint \(variant); "
                        + "Tests/Servers/testservers.py and GannetTestSupport disagree"
                )
            }
            endpoints[variant] = url
            leaves[variant] = leaf
        }
        let c = m.certificates
        var all = m.certificates.leaves
        all["rootCA"] = c.rootCA
        all["intermediateCA"] = c.intermediateCA
        all["untrustedRootCA"] = c.untrustedRootCA
        all["clientCA"] = c.clientCA
        all["pathLengthCA"] = c.pathLengthCA
        all["leafSigner"] = c.leafSigner
        certificates = TestCertificates(
            rootCA: c.rootCA.pem,
            rootCADER: c.rootCA.der,
            intermediateCA: c.intermediateCA.pem,
            intermediateCADER: c.intermediateCA.der,
            caBundle: c.caBundle,
            untrustedRootCA: c.untrustedRootCA.pem,
            untrustedRootCADER: c.untrustedRootCA.der,
            clientCA: c.clientCA.pem,
            clientCertificate: c.client.pem,
            clientCertificateDER: c.client.der,
            clientKey: c.client.key,
            clientPKCS12: c.client.pkcs12,
            clientPKCS12Password: c.client.pkcs12Password,
            all: all,
            leaves: leaves
        )
        httpbin = m.httpbin
        httpbinAlt = m.httpbinAlt
        nginx = m.nginx
        nginxTLS = m.nginxTLS
        nginxH2C = m.nginxH2C
        nginxUnixSocket = m.nginxUnixSocket
        fault = m.fault
        canaryURL = m.canary
        proxy = m.proxy
        authenticatingProxy = m.authenticatingProxy
        proxyCredentials = (m.proxyUser, m.proxyPassword)
        proxyLog = m.logs.proxy
        nginxAccessLog = m.logs.nginxAccess
        nginxErrorLog = m.logs.nginxError
        httpbinAccessLog = m.logs.httpbinAccess
        faultLog = m.logs.fault
        filesDirectory = m.files.directory
        oneMegabyteFile = m.files.oneMegabyte
        tenMegabyteFile = m.files.tenMegabytes
        directory = m.directory
        tlsEndpoints = endpoints
    }

    /// The TLS endpoint serving `variant`'s certificate, e.g. `https://localhost:P/`; see ``TLSVariant``.
    public func tlsEndpoint(_ variant: TLSVariant) -> URL {
        // The initializer checked that every variant is present.
        tlsEndpoints[variant]!
    }

    /// The lines of nginx's access log that contain `text`, e.g. a unique path a test requested,
    /// as the log is now. Use it to prove a request did *not* arrive (after the exchange failed).
    public func accessLogLines(containing text: String) -> [String] {
        Self.lines(of: nginxAccessLog, containing: text)
    }

    /// The matching lines once there are at least `count` of them, or whatever there is after
    /// `seconds`. nginx writes a line when it has finished a request, which can be just after
    /// the client already holds the response (seen in CI), so a presence check must wait. It
    /// waits with `Task.sleep`, never blocking one of the few cooperative threads tests run on.
    public func accessLogLines(
        containing text: String,
        atLeast count: Int,
        within seconds: Double = 3
    ) async -> [String] {
        await Self.lines(of: nginxAccessLog, containing: text, atLeast: count, within: seconds)
    }

    /// The same for httpbin's access log (gunicorn's), which also gets its line once the
    /// answer is sent; `count` 0 reads the log as it is now.
    public func httpbinAccessLogLines(
        containing text: String,
        atLeast count: Int = 0,
        within seconds: Double = 3
    ) async -> [String] {
        await Self.lines(of: httpbinAccessLog, containing: text, atLeast: count, within: seconds)
    }

    /// The body bytes nginx sent for the last access-log line containing `text` with `status`
    /// (the field after the request length), or `nil` when there is no such line.
    public func nginxBytesSent(containing text: String, status: Int) -> Int? {
        guard let line = accessLogLines(containing: text).last(where: { $0.contains(" \(status) ") }) else {
            return nil
        }
        let words = line.split(separator: " ")
        guard let index = words.firstIndex(of: Substring(String(status))), index + 2 < words.count else { return nil }
        return Int(words[index + 2])
    }

    private static func lines(of log: String, containing text: String) -> [String] {
        guard let data = FileManager.default.contents(atPath: log) else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").filter { $0.contains(text) }
            .map(String.init)
    }

    private static func lines(
        of log: String,
        containing text: String,
        atLeast count: Int,
        within seconds: Double
    ) async -> [String] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var found = lines(of: log, containing: text)
        while found.count < count && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
            found = lines(of: log, containing: text)
        }
        return found
    }

    /// How many connections the canary port has accepted since the servers started.
    public func canaryCount() throws -> Int {
        let body = try LoopbackHTTP.get(fault.appendingPathComponent("canary/count"))
        guard let count = Int(body.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestServerError("The fault server answered /canary/count with \(body.debugDescription)")
        }
        return count
    }
}

extension TestServers {
    private static let started = Mutex<Result<TestServers, TestServerError>?>(nil)

    /// The servers of this test process, started on the first call; later calls return the same
    /// servers, or throw the same error.
    ///
    /// - Throws: ``TestServerError`` naming what is missing (nginx, gunicorn, httpbin, cryptography,
    ///   python3) and how to install it (`scripts/install-deps.sh` installs everything).
    public static func shared() throws(TestServerError) -> TestServers {
        try started.withLock { state throws(TestServerError) -> TestServers in
            if let state {
                return try state.get()
            }
            let result = Result { () throws(TestServerError) -> TestServers in
                try TestServers(manifest: SupervisorProcess.launch())
            }
            state = result
            return try result.get()
        }
    }
}
