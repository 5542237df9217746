import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FaultsSerialSuites {
    /// Issue 16: TLS servers that fail in the handshake or in the body (Tests/Servers/tls_fault_server.py).
    /// Each fault ends in one typed failure, never a success with a partial body, and leaves no
    /// connection open. A renegotiation request on a pooled TLS 1.2 connection is
    /// TLSRenegotiationTests; a server whose key changes between connections is
    /// GannetSecurityTests' TLSKeyRotationTests.
    @Suite("TLS faults: stalled handshake, truncation without close_notify, alert mid-body")
    struct TLSFaultTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        private func startServer() async throws -> (HelperServer, [String: Int]) {
            let good = servers.certificates.leaf(.good)
            let other = servers.certificates.leaf(.rsa)
            let server = try HelperServer(
                script: "tls_fault_server.py",
                arguments: [good.chain ?? good.pem, good.privateKey, other.chain ?? other.pem, other.privateKey]
            )
            return (server, try await server.ports())
        }

        /// Runs one request to `path` on the `faults` (or another) port with a manager of its
        /// own, and checks the manager and its connections are gone afterwards.
        private func outcome(
            _ path: String,
            port name: String = "faults",
            timeout: TimeInterval? = nil,
            within seconds: Double = 20,
            configure: @escaping (inout SessionConfiguration) -> Void = { _ in }
        ) async throws -> FaultsOutcome {
            let (server, ports) = try await startServer()
            defer { server.stop() }
            let port = try #require(ports[name])
            let url = URL(string: "https://localhost:\(port)\(path)")!
            let ledger = try await FaultsLedger.begin(servers, ports: [url])
            let outcome: FaultsOutcome
            do {
                let manager = ledger.makeManager {
                    $0.tls.caFile = servers.certificates.caBundle
                    configure(&$0)
                }
                outcome = try await Faults.run(manager, Faults.request(url, timeout: timeout), within: seconds)
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
            return outcome
        }

        @Test func aHealthyAnswerFromTheFaultServerSucceeds() async throws {
            let outcome = try await outcome("/ok")
            #expect(outcome.completions == 1)
            #expect(outcome.response.data == Data("ok".utf8), "\(outcome.summary)")
        }

        /// The server accepts TCP and never answers the ClientHello: the connect timeout (which
        /// covers the TLS handshake) fires long before the 120 s request timeout could.
        @Test(.tags(.faultsSlow)) func aStalledHandshakeEndsAtTheConnectTimeout() async throws {
            let outcome = try await outcome("/", port: "stall", timeout: 120, within: 60) {
                $0.connectTimeout = 2
            }
            Faults.expectFailure(outcome, .timedOut, .timedOut, transportCode: 28)
        }

        /// The control for the next test: an HTTP/1.0 body delimited by the end of the
        /// connection is complete when the server ends TLS with close_notify.
        @Test func anHTTP10BodyEndedByCloseNotifyIsComplete() async throws {
            let outcome = try await outcome("/http10-close-notify")
            #expect(outcome.completions == 1)
            #expect(outcome.response.data == Data(repeating: UInt8(ascii: "x"), count: 1000), "\(outcome.summary)")
        }

        /// Without close_notify a TCP close cannot be told from an attacker's truncation
        /// (RFC 8446 §6.1): the body's end is unknown, so the task must fail instead of
        /// returning it.
        ///
        /// A known defect, left to the engine: libcurl 7.88 reads through its own BIO, whose
        /// `BIO_eof` is false while the socket is connected, so OpenSSL reports the bare TCP
        /// close as `SSL_ERROR_SYSCALL` with an empty error queue, which libcurl takes for a
        /// clean end (its "compatibility with older peers", curl #4624); clearing
        /// `SSL_OP_IGNORE_UNEXPECTED_EOF` does not change it. The engine would have to see
        /// whether close_notify came (`SSL_get_shutdown`, or a message callback recording the
        /// alert) for a body delimited by the close. When it does, this known issue stops
        /// being recorded and the test fails until the wrapper is removed.
        @Test func anHTTP10BodyEndedWithoutCloseNotifyFailsAsTruncated() async throws {
            let outcome = try await outcome("/http10-no-close-notify")
            withKnownIssue("a TLS body cut by a TCP close without close_notify is returned as complete") {
                Faults.expectFailure(outcome, .networkConnectionLost, .transport, transportCode: 56)
            }
            #expect(outcome.completions == 1)
        }

        /// A fatal alert (bad_record_mac, generated by the server's OpenSSL) after 500 of 1000 bytes.
        @Test func aFatalAlertMidBodyFails() async throws {
            let outcome = try await outcome("/alert-mid-body")
            Faults.expectFailure(outcome, .networkConnectionLost, .transport, transportCode: 56)
            #expect(outcome.gannetError?.message.contains("alert") == true, "\(outcome.summary)")
        }
    }
}
