import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FaultsSerialSuites {
    /// SECURITY-CASES 19–27: every broken answer ends in one typed failure, with descriptors
    /// back at their baseline and memory bounded, and nothing hangs.
    @Suite("Hostile servers: framing, heads, bombs, stalls")
    struct HostileServerTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        /// The body limit the bomb tests set: far below the 200 MiB a bomb inflates to.
        static let bodyLimit: Int64 = 8 << 20

        /// Runs `route` on a manager of its own, then checks that the manager's descriptors
        /// and connections are gone once it is invalidated and released.
        private func outcome(
            of route: FaultRoute,
            timeout: TimeInterval? = nil,
            within seconds: Double = 10,
            configure: (inout SessionConfiguration) -> Void = { _ in }
        ) async throws -> FaultsOutcome {
            let ledger = try await FaultsLedger.begin(servers)
            let outcome: FaultsOutcome
            do {
                let manager = ledger.makeManager(configure)
                outcome = try await Faults.run(
                    manager,
                    Faults.request(servers.url(route), timeout: timeout),
                    within: seconds
                )
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
            return outcome
        }

        // MARK: Framing (cases 19, 20, 21, 27)

        @Test func truncatedBodyIsConnectionLostNeverAPartialSuccess() async throws {
            let outcome = try await outcome(of: .truncated)
            Faults.expectFailure(outcome, .networkConnectionLost, .transport, transportCode: 18)
        }

        @Test func conflictingContentLengthsAreABadServerResponse() async throws {
            let outcome = try await outcome(of: .doubleLength)
            Faults.expectFailure(outcome, .badServerResponse, .protocolViolation)
        }

        @Test(arguments: [FaultRoute.badChunk, .overflowChunk, .chunkClose])
        func brokenChunkingFails(route: FaultRoute) async throws {
            let outcome = try await outcome(of: route)
            Faults.expectFailure(outcome, oneOf: [.networkConnectionLost, .badServerResponse], nil)
            #expect(outcome.gannetCode == .transport || outcome.gannetCode == .protocolViolation, "\(outcome.summary)")
        }

        @Test func resetMidBodyIsConnectionLost() async throws {
            let outcome = try await outcome(of: .reset)
            Faults.expectFailure(outcome, .networkConnectionLost, .transport)
        }

        @Test(arguments: [FaultRoute.resetImmediately, .emptyReply])
        func noResponseAtAllIsConnectionLost(route: FaultRoute) async throws {
            let outcome = try await outcome(of: route)
            Faults.expectFailure(outcome, .networkConnectionLost, .transport)
            #expect(outcome.response.response == nil)
        }

        // MARK: Heads (cases 23, 24)

        @Test func oneMebibyteHeaderIsHeadersTooLarge() async throws {
            let outcome = try await outcome(of: .hugeHeader)
            Faults.expectFailure(outcome, .badServerResponse, .headersTooLarge)
        }

        @Test func tenThousandHeadersAreHeadersTooLarge() async throws {
            let outcome = try await outcome(of: .manyHeaders)
            Faults.expectFailure(outcome, .badServerResponse, .headersTooLarge)
            #expect(
                outcome.gannetError?.message.contains("\(SessionConfiguration.Limits().maximumHeaderCount)") == true
            )
        }

        @Test func headerLimitsAreGannetsOwnAndConfigurable() async throws {
            // The control for the two tests above: libcurl takes 10,000 headers, so the
            // failure is Gannet's limit at work, and raising it lets the response through.
            let raised = try await outcome(of: .manyHeaders) { $0.limits.maximumHeaderCount = 20_000 }
            #expect(raised.response.value == Data("ok".utf8), "\(raised.summary)")
            let lowered = try await outcome(of: .manyHeaders) {
                $0.limits.maximumHeaderCount = 20_000
                $0.limits.maximumHeaderBytes = 16 * 1024
            }
            Faults.expectFailure(lowered, .badServerResponse, .headersTooLarge)
        }

        @Test func badStatusLineIsAProtocolViolation() async throws {
            let outcome = try await outcome(of: .badStatus)
            Faults.expectFailure(outcome, .badServerResponse, .protocolViolation)
        }

        @Test func nulInAHeaderIsAProtocolViolation() async throws {
            let outcome = try await outcome(of: .nulHeader)
            Faults.expectFailure(outcome, .badServerResponse, .protocolViolation)
        }

        @Test func informationalFloodIsAProtocolViolation() async throws {
            let outcome = try await outcome(of: .informationalFlood(count: 1000))
            Faults.expectFailure(outcome, .badServerResponse, .protocolViolation)
        }

        @Test func informationalResponsesUpToTheLimitAreSkipped() async throws {
            let limit = SessionConfiguration.Limits().maximumInformationalResponses
            let atLimit = try await outcome(of: .informationalFlood(count: limit))
            #expect(atLimit.response.value == Data("ok".utf8), "\(atLimit.summary)")
            let overLimit = try await outcome(of: .informationalFlood(count: limit + 1))
            Faults.expectFailure(overLimit, .badServerResponse, .protocolViolation)
        }

        // MARK: Decompression bombs (case 22)

        @Test(arguments: [FaultRoute.gzipBomb, .deflateBomb, .brotliBomb, .stackedEncoding, .neverEnds])
        func bombsStopAtTheBodyLimitWithBoundedMemory(route: FaultRoute) async throws {
            let sampler = FaultsMemorySampler()
            let outcome = try await outcome(of: route) { $0.limits.maximumBodyBytes = Self.bodyLimit }
            let growth = sampler.stop()
            Faults.expectFailure(outcome, .dataLengthExceedsMaximum, .bodyTooLarge)
            #expect((outcome.response.data?.count ?? 0) <= Int(Self.bodyLimit))
            // 200 MiB inflated would show; the limit's 8 MiB body, doubled by growth, must not.
            #expect(growth < 64 << 20, "resident memory grew by \(growth >> 20) MiB")
        }

        @Test func bombsAreNotInflatedWhenDecompressionIsOff() async throws {
            // The control: without decoding, the compressed bytes arrive as they are.
            let outcome = try await outcome(of: .gzipBomb) {
                $0.limits.maximumBodyBytes = Self.bodyLimit
                $0.decompressesResponses = false
            }
            let data = try #require(outcome.response.value, "\(outcome.summary)")
            #expect(data.count < 1 << 20)
            #expect(data.prefix(2) == Data([0x1F, 0x8B]))
        }

        // MARK: Stalls and slow servers (cases 25, 26)

        @Test(.tags(.faultsSlow), arguments: [FaultRoute.stall, .stallBody, .slowloris])
        func stalledServersTimeOutAtTheRequestTimeout(route: FaultRoute) async throws {
            let started = Date()
            let outcome = try await outcome(of: route, timeout: 1, within: 8)
            Faults.expectFailure(outcome, .timedOut, .timedOut)
            #expect(Date().timeIntervalSince(started) >= 0.9)
        }

        @Test(.tags(.faultsSlow))
        func theConfiguredRequestTimeoutAppliesWhenTheRequestHasNone() async throws {
            let outcome = try await outcome(of: .stall, timeout: 0, within: 8) { $0.timeoutIntervalForRequest = 1 }
            Faults.expectFailure(outcome, .timedOut, .timedOut)
        }

        @Test(.tags(.faultsSlow))
        func aTricklingBodyFailsAtTheResourceTimeout() async throws {
            // One byte every 50 ms never trips the idle timeout; the resource deadline must.
            let outcome = try await outcome(of: .slowBody(bytes: 200, intervalMilliseconds: 50), within: 8) {
                $0.timeoutIntervalForResource = 1
            }
            Faults.expectFailure(outcome, .timedOut, .timedOut)
        }

        @Test func aSlowlorisTransferCanBeCancelledAtAnyTime() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            do {
                let manager = ledger.makeManager()
                let log = FaultsCompletionLog<Data>()
                let task = manager.dataTask(with: URLRequest(url: servers.url(.slowloris)), serializer: .passthrough) {
                    log.record($0)
                }
                task.resume()
                // Cancel mid-body: once the head is in (the body then trickles a byte every 2 s).
                #expect(await eventually(within: 60) { task.response != nil }, "the response, once its head arrived")
                #expect(log.count == 0)
                task.cancel()
                let response = try #require(await log.wait(seconds: 30), "cancel did not complete the task")
                try await Task.sleep(for: Faults.settle)
                #expect(log.count == 1)
                #expect((response.error as? URLError)?.code == .cancelled)
                #expect(task.state == .completed)
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
        }
    }
}
