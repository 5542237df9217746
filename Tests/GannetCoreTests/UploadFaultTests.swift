import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FaultsSerialSuites {
    /// Issue 16: a server that fails while the client is still sending a 32 MiB body
    /// (Tests/Servers/upload_fault_server.py), over plain TCP and TLS, from memory and from a
    /// stream. Each ends in exactly one completion, the process alive (a write to a reset
    /// socket raises no SIGPIPE that kills it), and no connection or descriptor left behind.
    @Suite("Faults while sending: close and reset mid-upload, an early 413")
    struct UploadFaultTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        static let bodySize = 32 << 20

        enum Body: String, CaseIterable, Sendable { case data, stream }

        /// The server's account of one request: its path and how many body bytes it read.
        private struct ServerSide: Decodable {
            var path: String
            var received: Int
        }

        private func upload(
            _ path: String,
            tls: Bool,
            body: Body
        ) async throws -> (FaultsOutcome, ServerSide) {
            let leaf = servers.certificates.leaf(.good)
            let server = try HelperServer(
                script: "upload_fault_server.py",
                arguments: [leaf.chain ?? leaf.pem, leaf.privateKey]
            )
            defer { server.stop() }
            let ports = try await server.ports()
            let url =
                tls
                ? URL(string: "https://localhost:\(try #require(ports["tls"]))\(path)")!
                : URL(string: "http://127.0.0.1:\(try #require(ports["plain"]))\(path)")!
            let ledger = try await FaultsLedger.begin(servers, ports: [url])
            let outcome: FaultsOutcome
            do {
                let manager = ledger.makeManager { $0.tls.caFile = servers.certificates.caBundle }
                var request = Faults.request(url, timeout: 60, method: "POST")
                let payload = Data(repeating: 0x5a, count: Self.bodySize)
                switch body {
                case .data:
                    request.httpBody = payload
                case .stream:
                    request.httpBodyStream = InputStream(data: payload)
                    request.setValue("\(payload.count)", forHTTPHeaderField: "Content-Length")
                }
                outcome = try await Faults.run(manager, request, within: 60)
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
            let side = try JSONDecoder().decode(ServerSide.self, from: Data(try await server.line(1).utf8))
            #expect(side.path == path)
            return (outcome, side)
        }

        @Test(arguments: [false, true], Body.allCases)
        func aCloseMidUploadFailsOnce(tls: Bool, body: Body) async throws {
            let (outcome, server) = try await upload("/close-mid-upload", tls: tls, body: body)
            Faults.expectFailure(outcome, .networkConnectionLost, .transport)
            // The server read at least 64 KiB (one recv may bring more), then discarded the rest.
            #expect(server.received >= 64 << 10 && server.received < Self.bodySize, "\(server.received)")
        }

        @Test(arguments: [false, true], Body.allCases)
        func aResetMidUploadFailsOnce(tls: Bool, body: Body) async throws {
            let (outcome, server) = try await upload("/reset-mid-upload", tls: tls, body: body)
            Faults.expectFailure(outcome, .networkConnectionLost, .transport)
            #expect(server.received >= 64 << 10 && server.received < Self.bodySize, "\(server.received)")
        }

        /// The server answers before reading a byte of the body: the client stops sending and
        /// delivers the 413 (a response, not a transport failure).
        @Test(arguments: [false, true], Body.allCases)
        func anEarly413IsDeliveredOnce(tls: Bool, body: Body) async throws {
            let (outcome, server) = try await upload("/early-413", tls: tls, body: body)
            #expect(outcome.completions == 1)
            #expect(outcome.response.response?.statusCode == 413, "\(outcome.summary)")
            #expect(outcome.response.data == Data("too large".utf8), "\(outcome.summary)")
            #expect(server.received == 0)
        }

        /// The control: the same server reads a whole 32 MiB body when it means to.
        @Test(arguments: [false, true])
        func aCompleteUploadSucceeds(tls: Bool) async throws {
            let (outcome, server) = try await upload("/ok", tls: tls, body: .data)
            #expect(outcome.completions == 1)
            #expect(outcome.response.data == Data("\(Self.bodySize)".utf8), "\(outcome.summary)")
            #expect(server.received == Self.bodySize)
        }
    }
}
