import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FaultsSerialSuites {
    /// SECURITY-CASES 41: the trailer fields after a chunked body are header lines too. They
    /// count against the same limits as the head (``SessionConfiguration/Limits``), and a
    /// server that sends them without end gets the error of an oversized head, in bounded
    /// memory (docs/core.md, "Limits").
    @Suite("Trailers count against the header limits")
    struct TrailerLimitTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        /// What the endless routes send before the client stops them: far beyond any limit.
        static let sentMebibytes = 32

        private func outcome(
            of route: FaultRoute,
            configure: (inout SessionConfiguration) -> Void = { _ in }
        ) async throws -> FaultsOutcome {
            let ledger = try await FaultsLedger.begin(servers)
            let outcome: FaultsOutcome
            do {
                let manager = ledger.makeManager(configure)
                outcome = try await Faults.run(manager, Faults.request(servers.url(route)), within: 120)
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
            return outcome
        }

        /// Many short lines trip the line count; with the count raised, the byte limit; one
        /// line longer than libcurl's 4 KiB trailer buffer, libcurl's own refusal.
        @Test(arguments: [
            (lineBytes: 64, raisesCount: false, mentions: "header lines"),
            (lineBytes: 64, raisesCount: true, mentions: "bytes"),
            (lineBytes: 5000, raisesCount: false, mentions: "trailer"),
        ])
        func endlessTrailersAreHeadersTooLargeInBoundedMemory(
            lineBytes: Int,
            raisesCount: Bool,
            mentions: String
        ) async throws {
            let sampler = FaultsMemorySampler()
            let outcome = try await outcome(
                of: .endlessTrailers(mebibytes: Self.sentMebibytes, lineBytes: lineBytes)
            ) { if raisesCount { $0.limits.maximumHeaderCount = 1 << 30 } }
            let growth = sampler.stop()
            Faults.expectFailure(outcome, .badServerResponse, .headersTooLarge)
            #expect(outcome.gannetError?.message.contains(mentions) == true, "\(outcome.summary)")
            // Unbounded, libcurl holds every line it passed on (over 60 MiB for the 32 MiB sent).
            #expect(growth < 16 << 20, "resident memory grew by \(growth >> 20) MiB")
        }

        /// The same through `data(for:)`, the call the report named: it throws the typed error.
        @Test func dataForThrowsHeadersTooLarge() async throws {
            let ledger = try await FaultsLedger.begin(servers)
            do {
                let manager = ledger.makeManager()
                let request = URLRequest(url: servers.url(.endlessTrailers(mebibytes: Self.sentMebibytes)))
                do {
                    let (data, response) = try await manager.data(for: request)
                    Issue.record("succeeded with status \(response.statusCode) and \(data.count) body bytes")
                } catch let error as URLError {
                    #expect(error.code == .badServerResponse)
                    #expect(FaultsErrors.gannetError(in: error)?.code == .headersTooLarge, "\(error)")
                }
                manager.invalidateAndCancel()
            }
            await ledger.expectReturned()
        }

        @Test func smallTrailersArriveWithTheirBody() async throws {
            let outcome = try await outcome(of: .smallTrailers)
            #expect(outcome.response.value == Data("hello trailers".utf8), "\(outcome.summary)")
            #expect(outcome.response.response?.statusCode == 200)
        }

        /// The head's three fields and the two trailers are one response's five header lines:
        /// a limit of five takes them, a limit of four refuses the second trailer. Likewise
        /// for bytes: the limit is the head's and the trailers' bytes together.
        @Test func theHeadAndItsTrailersShareTheLimits() async throws {
            let five = try await outcome(of: .smallTrailers) { $0.limits.maximumHeaderCount = 5 }
            #expect(five.response.value == Data("hello trailers".utf8), "\(five.summary)")
            let four = try await outcome(of: .smallTrailers) { $0.limits.maximumHeaderCount = 4 }
            Faults.expectFailure(four, .badServerResponse, .headersTooLarge)

            // The head is 104 bytes with its blank line, the trailers 38 with their CRLFs
            // (Tests/Servers/trailer_routes.py); libcurl passes on no blank line after them.
            let exact = try await outcome(of: .smallTrailers) { $0.limits.maximumHeaderBytes = 104 + 38 }
            #expect(exact.response.value == Data("hello trailers".utf8), "\(exact.summary)")
            let short = try await outcome(of: .smallTrailers) { $0.limits.maximumHeaderBytes = 104 + 38 - 1 }
            Faults.expectFailure(short, .badServerResponse, .headersTooLarge)
        }
    }
}

extension FaultRoute {
    /// Chunked `hello trailers` followed by two trailer fields, `X-Checksum` and `X-Status`,
    /// after a head of three fields (Tests/Servers/trailer_routes.py).
    static let smallTrailers = FaultRoute("/trailers/small")

    /// Chunked `ok`, then trailer lines of about `lineBytes` bytes without end: up to
    /// `mebibytes` MiB or until the client closes, then the blank line that ends the section.
    /// A `lineBytes` over 4 KiB is one trailer line longer than libcurl takes.
    static func endlessTrailers(mebibytes: Int = 64, lineBytes: Int = 64) -> FaultRoute {
        FaultRoute("/trailers/endless?mib=\(mebibytes)&line=\(lineBytes)")
    }
}
