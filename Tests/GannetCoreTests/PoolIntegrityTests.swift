import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FaultsSerialSuites {
    /// Issue 16: the connection pool against servers that leave a connection in a bad state, and
    /// framing faults end to end (Tests/Servers/integrity_routes.py, `/integrity/…` on the fault
    /// server). HostileServerTests already covers a short body, conflicting lengths, broken
    /// chunks, resets, huge or many headers, bad status lines, NUL bytes, 1xx floods and bombs;
    /// these are the faults it does not.
    @Suite("Pool integrity: stale and polluted connections, framing end to end")
    struct PoolIntegrityTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        private func url(_ path: String) -> URL { servers.url(FaultRoute(path)) }

        enum PostBody: String, CaseIterable, Sendable { case none, data, stream }

        private func post(_ url: URL, body kind: PostBody = .data) -> URLRequest {
            var request = Faults.request(url, timeout: 30, method: "POST")
            let body = Data("order=1".utf8)
            switch kind {
            case .none: break
            case .data: request.httpBody = body
            case .stream:
                request.httpBodyStream = InputStream(data: body)
                request.setValue("\(body.count)", forHTTPHeaderField: "Content-Length")
            }
            return request
        }

        private func text(_ outcome: FaultsOutcome) -> String? {
            outcome.response.value.map { String(decoding: $0, as: UTF8.self) }
        }

        /// Bytes beyond a short `Content-Length` (here a whole forged response) are never read
        /// as the answer to the next request on that connection.
        @Test func bytesBeyondTheContentLengthNeverAnswerTheNextRequest() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            do {
                let manager = ledger.makeManager()
                for _ in 0..<3 {
                    let first = try await Faults.run(manager, Faults.request(url("/integrity/overlong")))
                    #expect(first.completions == 1)
                    #expect(text(first) == "hello", "\(first.summary)")
                    let next = try await Faults.run(manager, Faults.request(url("/integrity/ok")))
                    #expect(next.completions == 1)
                    #expect(text(next) == "ok", "the next request read \(next.summary)")
                }
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
        }

        /// The server closes each connection after answering (no `Connection: close`): the
        /// pooled connection is dead when the next request comes, which must still succeed,
        /// and a POST must reach the server exactly once.
        @Test(arguments: PostBody.allCases)
        func aConnectionTheServerClosedWhileIdleIsNotUsed(body: PostBody) async throws {
            let key = Faults.marker()
            let ledger = try await FaultsLedger.begin(servers)
            do {
                let manager = ledger.makeManager()
                for round in 1...3 {
                    let idle = try await Faults.run(manager, Faults.request(url("/integrity/idle-close")))
                    #expect(text(idle) == "ok", "\(idle.summary)")
                    let get = try await Faults.run(manager, Faults.request(url("/integrity/ok")))
                    #expect(text(get) == "ok", "\(get.summary)")
                    _ = try await Faults.run(manager, Faults.request(url("/integrity/idle-close")))
                    let posted = try await Faults.run(manager, post(url("/integrity/post?key=\(key)"), body: body))
                    #expect(posted.completions == 1)
                    #expect(text(posted) == "\(round)", "POST #\(round) reached the server \(posted.summary) times")
                }
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
        }

        /// The server reads a POST on a reused keep-alive connection, then closes it without
        /// answering. libcurl would send the request again on a fresh connection ("connection
        /// died, retrying"); a POST is not idempotent, so the task fails instead and the server
        /// has seen it once. With a body libcurl cannot rewind it (curl code 65); without one
        /// the engine refuses the second send (docs/engine.md, "Connection reuse").
        @Test(arguments: PostBody.allCases)
        func aPOSTIsNeverSilentlyReplayedOnAStaleConnection(body: PostBody) async throws {
            let key = Faults.marker()
            let ledger = try await FaultsLedger.begin(servers)
            do {
                let manager = ledger.makeManager()
                let warm = try await Faults.run(manager, Faults.request(url("/integrity/ok")))
                #expect(text(warm) == "ok", "\(warm.summary)")
                let dropped = try await Faults.run(manager, post(url("/integrity/post-drop?key=\(key)"), body: body))
                Faults.expectFailure(dropped, .networkConnectionLost, .transport)
                let count = try await Faults.run(manager, Faults.request(url("/integrity/count?key=\(key)")))
                #expect(text(count) == "1", "the server received the POST \(text(count) ?? "?") times")
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
        }

        /// The same server, a GET: idempotent, so a retry on a fresh connection is allowed.
        @Test func aGETOnADroppedPooledConnectionMaySucceedOnAFreshOne() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            do {
                let manager = ledger.makeManager()
                _ = try await Faults.run(manager, Faults.request(url("/integrity/idle-close")))
                let next = try await Faults.run(manager, Faults.request(url("/integrity/ok")))
                #expect(text(next) == "ok", "\(next.summary)")
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
        }

        // MARK: Framing end to end

        private func framing(_ path: String) async throws -> FaultsOutcome {
            let ledger = try await FaultsLedger.begin(servers)
            let outcome: FaultsOutcome
            do {
                let manager = ledger.makeManager()
                outcome = try await Faults.run(manager, Faults.request(url(path)))
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
            #expect(outcome.completions == 1)
            return outcome
        }

        /// RFC 9112 §6.3: `Transfer-Encoding` overrides `Content-Length`; the chunked body is the body.
        @Test func contentLengthWithChunkedReadsTheChunkedBody() async throws {
            let outcome = try await framing("/integrity/length-and-chunked")
            #expect(text(outcome) == "hello", "\(outcome.summary)")
        }

        @Test func aNegativeContentLengthIsABadServerResponse() async throws {
            let outcome = try await framing("/integrity/negative-length")
            Faults.expectFailure(outcome, .badServerResponse, .protocolViolation)
        }

        /// `+5` is not `1*DIGIT` (RFC 9110 §8.6).
        @Test func aSignedContentLengthIsABadServerResponseOrItsValue() async throws {
            let outcome = try await framing("/integrity/plus-length")
            if outcome.error == nil {
                #expect(text(outcome) == "hello", "\(outcome.summary)")
            } else {
                Faults.expectFailure(outcome, .badServerResponse, .protocolViolation)
            }
        }

        @Test func aCorruptGzipBodyCannotBeDecoded() async throws {
            let outcome = try await framing("/integrity/corrupt-gzip")
            Faults.expectFailure(outcome, .cannotDecodeContentData, .transport, transportCode: 61)
        }

        @Test func bareLFLineEndingsAreRead() async throws {
            let outcome = try await framing("/integrity/bare-lf")
            #expect(text(outcome) == "hello", "\(outcome.summary)")
        }

        /// A bare CR never ends a header line (RFC 9112 §2.2): `X-Smuggled` is not a header.
        @Test func aBareCRNeverStartsANewHeader() async throws {
            let outcome = try await framing("/integrity/bare-cr")
            if outcome.error == nil {
                #expect(text(outcome) == "hello", "\(outcome.summary)")
                #expect(outcome.response.response?.value(forHTTPHeaderField: "X-Smuggled") == nil)
            } else {
                Faults.expectFailure(outcome, .badServerResponse, .protocolViolation)
            }
        }

        /// 100,000 trailer fields (about 2 MB) after a five-byte chunked body: the body, or
        /// the header limits' typed error, never unbounded growth.
        @Test func aTrailerFloodIsBounded() async throws {
            let sampler = FaultsMemorySampler()
            let outcome = try await framing("/integrity/trailer-flood")
            let growth = sampler.stop()
            if outcome.error == nil {
                #expect(text(outcome) == "hello", "\(outcome.summary)")
            } else {
                Faults.expectFailure(outcome, .badServerResponse, .headersTooLarge)
            }
            #expect(growth < 64 << 20, "resident memory grew by \(growth >> 20) MiB")
        }
    }
}
