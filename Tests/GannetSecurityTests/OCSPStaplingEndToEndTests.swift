import Foundation
import GannetSecurity
import GannetTestSupport
import Synchronization
import Testing

/// ``OCSPStaplingTrustEvaluator`` inside real handshakes with the test nginx, which staples
/// responses made by the test intermediate (Tests/Servers/README.md, "OCSP stapling"), over
/// TLS 1.2 (the staple in its own CertificateStatus message) and TLS 1.3 (inside Certificate).
///
/// A refusal must happen in the handshake: nginx's access log has no line for the request, and
/// its error log has the client's `bad_certificate_status_response` alert (113), which only the
/// engine's OCSP status callback sends. Serialized so each refusal's alert can be counted.
@Suite("End to end: OCSP stapling decided in the handshake", .serialized)
struct OCSPStaplingEndToEndTests {
    typealias Requirement = OCSPStaplingTrustEvaluator.Requirement

    /// Endpoints by TLS version: the same three servers (no staple, good staple, revoked staple).
    static let versions: [(name: String, none: TLSVariant, good: TLSVariant, revoked: TLSVariant)] = [
        ("TLSv1.2", .tls12Only, .stapledGoodTLS12Only, .stapledRevokedTLS12Only),
        ("TLSv1.3", .tls13Only, .stapledGoodTLS13Only, .stapledRevokedTLS13Only),
    ]

    static let missing = Handshake.refused(.ocspResponseMissing, .serverCertificateUntrusted)
    static let revoked = Handshake.refused(.revoked, .serverCertificateUntrusted)

    private func manager(_ requirement: Requirement) throws -> SessionManager {
        let store = try EndToEnd.testCA()
        return EndToEnd.manager(
            OCSPStaplingTrustEvaluator(
                base: DefaultTrustEvaluator(trustStore: store),
                requirement: requirement,
                trustStore: store
            )
        )
    }

    /// Requests `variant` once and checks the outcome against nginx's logs: a success is one
    /// access-log line over `tlsVersion`; a refusal is no line and one alert 113 from the handshake.
    private func expect(
        _ variant: TLSVariant,
        with manager: SessionManager,
        toBe expected: Handshake,
        tlsVersion: String? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let servers = try EndToEnd.servers()
        let port = try #require(servers.tlsEndpoint(variant).port)
        let alertsBefore = statusAlerts(servers, port: port)
        let (url, marker) = try EndToEnd.markedURL(variant)
        let response = await EndToEnd.get(url, with: manager)
        #expect(Handshake(response) == expected, "\(variant)", sourceLocation: sourceLocation)
        let lines = await servers.accessLogLines(containing: marker, atLeast: expected.status == nil ? 0 : 1)
        if expected.status != nil {
            #expect(lines.count == 1, "\(variant): \(lines)", sourceLocation: sourceLocation)
            if let tlsVersion {
                #expect(
                    lines.allSatisfy { $0.contains("tls=\(tlsVersion) ") },
                    "\(variant): \(lines)",
                    sourceLocation: sourceLocation
                )
            }
        } else {
            #expect(lines.isEmpty, "\(variant): a refused handshake delivered \(lines)", sourceLocation: sourceLocation)
            let alerts = await waitForStatusAlerts(servers, port: port, moreThan: alertsBefore)
            #expect(
                alerts == alertsBefore + 1,
                "\(variant): bad_certificate_status_response alerts",
                sourceLocation: sourceLocation
            )
        }
    }

    @Test(
        "Required: a good staple passes, no staple and a revoked staple are refused in the handshake",
        arguments: versions.map(\.name)
    )
    func required(version: String) async throws {
        let endpoints = try #require(Self.versions.first { $0.name == version })
        let manager = try manager(.required)
        defer { manager.invalidateAndCancel() }
        try await expect(endpoints.good, with: manager, toBe: .ok(), tlsVersion: version)
        try await expect(endpoints.none, with: manager, toBe: Self.missing)
        try await expect(endpoints.revoked, with: manager, toBe: Self.revoked)
    }

    @Test(
        "If present: no staple passes, a good staple passes, a revoked staple is refused in the handshake",
        arguments: versions.map(\.name)
    )
    func ifPresent(version: String) async throws {
        let endpoints = try #require(Self.versions.first { $0.name == version })
        let manager = try manager(.ifPresent)
        defer { manager.invalidateAndCancel() }
        try await expect(endpoints.none, with: manager, toBe: .ok(), tlsVersion: version)
        try await expect(endpoints.good, with: manager, toBe: .ok(), tlsVersion: version)
        try await expect(endpoints.revoked, with: manager, toBe: Self.revoked)
    }

    @Test("The endpoints named in the issue: stapledGood, good (no staple) and stapledRevoked")
    func issueEndpoints() async throws {
        let required = try manager(.required)
        let optional = try manager(.ifPresent)
        defer {
            required.invalidateAndCancel()
            optional.invalidateAndCancel()
        }
        try await expect(.stapledGood, with: required, toBe: .ok())
        try await expect(.good, with: required, toBe: Self.missing)
        try await expect(.stapledRevoked, with: required, toBe: Self.revoked)
        try await expect(.good, with: optional, toBe: .ok())
        try await expect(.stapledRevoked, with: optional, toBe: Self.revoked)
    }

    @Test("Without the stapling evaluator the revoked server is trusted: nginx staples only when asked")
    func revocationIsOptIn() async throws {
        let manager = EndToEnd.manager(DefaultTrustEvaluator(trustStore: try EndToEnd.testCA()))
        defer { manager.invalidateAndCancel() }
        try await expect(.stapledRevoked, with: manager, toBe: .ok())
    }

    @Test("A connection trusted with its staple is reused without another evaluation")
    func reuse() async throws {
        let store = try EndToEnd.testCA()
        let counting = StaplingCounter(
            OCSPStaplingTrustEvaluator(
                base: DefaultTrustEvaluator(trustStore: store),
                requirement: .required,
                trustStore: store
            )
        )
        let manager = EndToEnd.manager(counting)
        defer { manager.invalidateAndCancel() }
        for _ in 0..<3 {
            try await expect(.stapledGood, with: manager, toBe: .ok())
        }
        let (url, _) = try EndToEnd.markedURL(.stapledGood)
        let last = await EndToEnd.get(url, with: manager)
        #expect(last.metrics?.reusedConnection == true)
        #expect(counting.count == 1)
    }

    @Test("A server trust manager applies stapling to the hosts it is configured for")
    func perHost() async throws {
        let store = try EndToEnd.testCA()
        let stapling = OCSPStaplingTrustEvaluator(
            base: DefaultTrustEvaluator(trustStore: store),
            requirement: .required,
            trustStore: store
        )
        let manager = EndToEnd.manager(
            try ServerTrustManager(
                evaluators: ["127.0.0.1": DefaultTrustEvaluator(trustStore: store)],
                default: stapling
            )
        )
        defer { manager.invalidateAndCancel() }
        let servers = try EndToEnd.servers()
        let port = try #require(servers.tlsEndpoint(.stapledRevoked).port)
        let marker = "id=\(UUID().uuidString)"
        // The same revoked server: refused as localhost (stapling required), trusted as 127.0.0.1.
        let refused = await EndToEnd.get(URL(string: "https://localhost:\(port)/echo?\(marker)")!, with: manager)
        #expect(Handshake(refused) == Self.revoked)
        let trusted = await EndToEnd.get(URL(string: "https://127.0.0.1:\(port)/echo?\(marker)")!, with: manager)
        #expect(Handshake(trusted) == .ok())
        #expect(await servers.accessLogLines(containing: marker, atLeast: 1).count == 1)
    }
}

/// Counts the evaluations of a stapling evaluator: once per full handshake.
private final class StaplingCounter: ServerTrustEvaluating {
    let inner: OCSPStaplingTrustEvaluator
    private let calls = Atomic<Int>(0)

    init(_ inner: OCSPStaplingTrustEvaluator) { self.inner = inner }

    var count: Int { calls.load(ordering: .relaxed) }
    var requestsOCSPStapling: Bool { inner.requestsOCSPStapling }

    func evaluate(_ trust: ServerTrust) throws {
        calls.add(1, ordering: .relaxed)
        try inner.evaluate(trust)
    }
}

/// nginx's `info` lines for handshakes the client aborted with `bad_certificate_status_response`
/// on the server at `port`.
private func statusAlerts(_ servers: TestServers, port: Int) -> Int {
    guard let data = FileManager.default.contents(atPath: servers.nginxErrorLog) else { return 0 }
    return String(decoding: data, as: UTF8.self).split(separator: "\n")
        .filter { $0.contains("SSL alert number 113") && $0.hasSuffix("server: 127.0.0.1:\(port)") }
        .count
}

/// nginx logs the alert when its worker reads it, which may be just after the client gave up.
private func waitForStatusAlerts(_ servers: TestServers, port: Int, moreThan count: Int) async -> Int {
    for _ in 0..<100 {
        let now = statusAlerts(servers, port: port)
        if now > count { return now }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return statusAlerts(servers, port: port)
}
