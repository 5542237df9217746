import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Server-trust challenge handler, decided in the handshake")
struct ServerTrustChallengeTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    private func request(_ variant: TLSVariant, marker: String) -> URLRequest {
        URLRequest(url: servers.tlsEndpoint(variant).adding("/echo?\(marker)"))
    }

    @Test func useCredentialTrustsWhatDefaultVerificationRefuses() async throws {
        let manager = testManager(servers)
        let seen = Mutex<ServerTrust?>(nil)
        manager.setServerTrustChallengeHandler { _, _, trust in
            seen.withLock { $0 = trust }
            return .useCredential
        }
        let marker = UUID().uuidString
        let response = await perform(manager, request(.selfSigned, marker: marker))
        #expect(response.response?.statusCode == 200)
        let trust = try #require(seen.withLock { $0 })
        #expect(trust.host == "localhost")
        #expect(trust.port == servers.tlsEndpoint(.selfSigned).port)
        #expect(trust.certificateChain.count == 1)
        #expect(await servers.accessLogLines(containing: marker, atLeast: 1).count == 1)
    }

    @Test(arguments: [TLSVariant.good, .wrongHost, .expired, .untrustedRoot, .selfSigned])
    func defaultHandlingVerifiesLikeLibcurl(variant: TLSVariant) async throws {
        let manager = testManager(servers)
        let asked = CallCounter()
        manager.setServerTrustChallengeHandler { _, _, _ in
            asked.increment()
            return .performDefaultHandling
        }
        let marker = UUID().uuidString
        let response = await perform(manager, request(variant, marker: marker))
        #expect(asked.value == 1)
        if variant == .good {
            #expect(response.response?.statusCode == 200, "\(String(describing: response.error))")
            #expect(await servers.accessLogLines(containing: marker, atLeast: 1).count == 1)
        } else {
            #expect((response.error as? URLError)?.code == .serverCertificateUntrusted)
            #expect(gannetCode(response.error) == .serverTrustRejected)
            #expect(servers.accessLogLines(containing: marker).isEmpty, "a refused handshake must deliver no request")
        }
    }

    @Test func rejectCarriesTheHandlersError() async throws {
        struct NotOurServer: Error {}
        let manager = testManager(servers)
        manager.setServerTrustChallengeHandler { _, _, _ in .reject(NotOurServer()) }
        let marker = UUID().uuidString
        let response = await perform(manager, request(.good, marker: marker))
        let error = try #require(response.error as? URLError)
        #expect(error.code == .serverCertificateUntrusted)
        let underlying = try #require(error.errorUserInfo[NSUnderlyingErrorKey] as? GannetError)
        #expect(underlying.underlyingError is NotOurServer)
        #expect(servers.accessLogLines(containing: marker).isEmpty)
    }

    @Test func cancelCancels() async throws {
        let manager = testManager(servers)
        manager.setServerTrustChallengeHandler { _, _, _ in .cancel }
        let marker = UUID().uuidString
        let response = await perform(manager, request(.good, marker: marker))
        #expect((response.error as? URLError)?.code == .cancelled)
        #expect(servers.accessLogLines(containing: marker).isEmpty)
    }

    @Test func aHandlerSetLaterReChecksPooledConnections() async throws {
        let manager = testManager(servers)
        let first = await perform(manager, request(.good, marker: UUID().uuidString))
        #expect(first.response?.statusCode == 200)
        // The pooled connection was verified by libcurl; once a handler exists it is asked
        // before the next request on that connection is sent.
        manager.setServerTrustChallengeHandler { _, _, _ in .cancel }
        let marker = UUID().uuidString
        let second = await perform(manager, request(.good, marker: marker))
        #expect((second.error as? URLError)?.code == .cancelled)
        #expect(servers.accessLogLines(containing: marker).isEmpty)
    }

    /// Issue 16, defect 1: a connection approved by one handler is not trusted by the next.
    @Test func aReplacedHandlerIsAskedBeforeAPooledConnectionIsReused() async throws {
        struct Refused: Error {}
        let manager = testManager(servers)
        manager.setServerTrustChallengeHandler { _, _, _ in .useCredential }
        let first = await perform(manager, request(.good, marker: UUID().uuidString))
        #expect(first.response?.statusCode == 200)
        let asked = CallCounter()
        manager.setServerTrustChallengeHandler { _, _, _ in
            asked.increment()
            return .reject(Refused())
        }
        let marker = UUID().uuidString
        let second = await perform(manager, request(.good, marker: marker))
        #expect(asked.value == 1, "the new handler must be asked for the pooled connection")
        #expect((second.error as? URLError)?.code == .serverCertificateUntrusted)
        #expect(servers.accessLogLines(containing: marker).isEmpty, "no request may be sent on a rejected connection")
    }

    @Test func removingTheHandlerRestoresDefaultVerificationOnPooledConnections() async throws {
        let manager = testManager(servers)
        manager.setServerTrustChallengeHandler { _, _, _ in .useCredential }
        let first = await perform(manager, request(.selfSigned, marker: UUID().uuidString))
        #expect(first.response?.statusCode == 200)
        manager.setServerTrustChallengeHandler(nil)
        let marker = UUID().uuidString
        let second = await perform(manager, request(.selfSigned, marker: marker))
        #expect((second.error as? URLError)?.code == .serverCertificateUntrusted)
        #expect(servers.accessLogLines(containing: marker).isEmpty)
    }

    @Test func theSameHandlerIsAskedOncePerConnection() async throws {
        let manager = testManager(servers)
        let asked = CallCounter()
        manager.setServerTrustChallengeHandler { _, _, _ in
            asked.increment()
            return .useCredential
        }
        for _ in 0..<3 {
            let response = await perform(manager, request(.good, marker: UUID().uuidString))
            #expect(response.response?.statusCode == 200)
        }
        #expect(asked.value == 1, "a pooled connection approved by the current handler is not asked again")
    }
}
