import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the engine hands an evaluator about OCSP stapling, against the test nginx's stapling
/// endpoints: the staple only for evaluators that ask, byte for byte what nginx sent, one
/// evaluation per handshake whether or not a staple came, and a refusal inside the handshake.
@Suite("OCSP stapling: the engine's side", .serialized)
struct OCSPStaplingCoreTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    struct Refusal: Error {}

    /// Records what it is shown; trusts everything unless told to refuse. Test servers only.
    final class Recorder: ServerTrustEvaluating {
        let requestsOCSPStapling: Bool
        let refuses: Bool
        private let seen = Mutex<[ServerTrust]>([])

        init(requestsStapling: Bool, refuses: Bool = false) {
            requestsOCSPStapling = requestsStapling
            self.refuses = refuses
        }

        var trusts: [ServerTrust] { seen.withLock { $0 } }

        func evaluate(_ trust: ServerTrust) throws {
            seen.withLock { $0.append(trust) }
            if refuses { throw Refusal() }
        }
    }

    private func manager(_ evaluator: any ServerTrustEvaluating) -> SessionManager {
        var configuration = SessionConfiguration.default
        configuration.tls.serverTrustEvaluator = evaluator
        return SessionManager(configuration: configuration)
    }

    private func get(_ variant: TLSVariant, with manager: SessionManager) async -> (DataResponse<Data>, String) {
        let marker = UUID().uuidString
        return (await perform(manager, URLRequest(url: servers.tlsEndpoint(variant).adding("/echo?\(marker)"))), marker)
    }

    private func staple(_ variant: TLSVariant) throws -> Data {
        let path = try #require(servers.certificates.stapledOCSPResponse(variant))
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    private func leaf(_ variant: TLSVariant) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: servers.certificates.leaf(variant).der))
    }

    static let stapling: [TLSVariant] = [
        .stapledGood, .stapledGoodTLS12Only, .stapledGoodTLS13Only, .stapledRevokedTLS12Only, .stapledRevokedTLS13Only,
    ]
    static let notStapling: [TLSVariant] = [.good, .tls12Only, .tls13Only]

    @Test(
        "An evaluator that does not request stapling gets no staple, even from a stapling server",
        arguments: stapling
    )
    func notRequested(variant: TLSVariant) async throws {
        let recorder = Recorder(requestsStapling: false)
        let manager = manager(recorder)
        defer { manager.invalidateAndCancel() }
        let (response, _) = await get(variant, with: manager)
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        let trust = try #require(recorder.trusts.first)
        #expect(recorder.trusts.count == 1)
        #expect(trust.stapledOCSPResponse == nil)
        #expect(trust.certificateChain.first == (try leaf(variant)))
    }

    @Test(
        "An evaluator that requests stapling gets exactly the bytes nginx stapled, once per handshake",
        arguments: stapling
    )
    func requested(variant: TLSVariant) async throws {
        let recorder = Recorder(requestsStapling: true)
        let manager = manager(recorder)
        defer { manager.invalidateAndCancel() }
        let (response, _) = await get(variant, with: manager)
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        // One evaluation: the certificate callback deferred to the status callback.
        #expect(recorder.trusts.count == 1)
        let trust = try #require(recorder.trusts.first)
        #expect(trust.stapledOCSPResponse == (try staple(variant)))
        #expect(trust.certificateChain.first == (try leaf(variant)))
        #expect(trust.certificateChain.count == 2)
        #expect(trust.host == "localhost")
        #expect(trust.port == servers.tlsEndpoint(variant).port)
    }

    @Test("A server that staples nothing is still evaluated, once, with no staple", arguments: notStapling)
    func requestedButNoneSent(variant: TLSVariant) async throws {
        let recorder = Recorder(requestsStapling: true)
        let manager = manager(recorder)
        defer { manager.invalidateAndCancel() }
        let (response, _) = await get(variant, with: manager)
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        #expect(recorder.trusts.count == 1)
        let trust = try #require(recorder.trusts.first)
        #expect(trust.stapledOCSPResponse == nil)
        #expect(trust.certificateChain.first == (try leaf(variant)))
    }

    @Test(
        "A refusal in the status callback aborts the handshake: no request, the client's alert, the error kept",
        // Endpoints no other suite refuses with a staple request, so the alert count is this test's
        // alone (the end-to-end security suite covers tls12Only and tls13Only the same way).
        arguments: [TLSVariant.stapledGoodTLS12Only, .stapledGoodTLS13Only, .http1Only]
    )
    func refusal(variant: TLSVariant) async throws {
        let recorder = Recorder(requestsStapling: true, refuses: true)
        let manager = manager(recorder)
        defer { manager.invalidateAndCancel() }
        let port = try #require(servers.tlsEndpoint(variant).port)
        let alertsBefore = statusAlerts(port: port)
        let (response, marker) = await get(variant, with: manager)
        let error = try #require(response.error as? URLError)
        #expect(error.code == .serverCertificateUntrusted)
        let gannet = try #require(error.errorUserInfo[NSUnderlyingErrorKey] as? GannetError)
        #expect(gannet.code == .serverTrustRejected)
        #expect(gannet.underlyingError is Refusal)
        #expect(recorder.trusts.count == 1)
        #expect(servers.accessLogLines(containing: marker).isEmpty, "a refused handshake must deliver no request")
        // Only the status callback's refusal sends bad_certificate_status_response (113).
        #expect(await waitForStatusAlerts(port: port, moreThan: alertsBefore) == alertsBefore + 1)
    }

    @Test("A challenge handler is asked with the staple; default handling then runs the evaluator")
    func challengeHandlerSeesTheStaple() async throws {
        let recorder = Recorder(requestsStapling: true)
        let manager = manager(recorder)
        defer { manager.invalidateAndCancel() }
        let asked = Mutex<[Data?]>([])
        manager.setServerTrustChallengeHandler { _, _, trust in
            asked.withLock { $0.append(trust.stapledOCSPResponse) }
            return .performDefaultHandling
        }
        let (response, _) = await get(.stapledGood, with: manager)
        #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
        let expected = try staple(.stapledGood)
        #expect(asked.withLock { $0 } == [expected])
        #expect(recorder.trusts.map(\.stapledOCSPResponse) == [expected])
    }

    /// nginx's `info` lines for handshakes aborted by the client's `bad_certificate_status_response`.
    private func statusAlerts(port: Int) -> Int {
        guard let data = FileManager.default.contents(atPath: servers.nginxErrorLog) else { return 0 }
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("SSL alert number 113") && $0.hasSuffix("server: 127.0.0.1:\(port)") }
            .count
    }

    /// nginx logs the alert when its worker reads it, which may be just after the client gave up.
    private func waitForStatusAlerts(port: Int, moreThan count: Int) async -> Int {
        for _ in 0..<100 {
            let now = statusAlerts(port: port)
            if now > count { return now }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return statusAlerts(port: port)
    }
}
