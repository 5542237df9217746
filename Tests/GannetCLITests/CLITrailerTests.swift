import Foundation
import GannetTestSupport
import Testing

/// SECURITY-CASES 41 for the command: endless trailers after a chunked body end the command
/// with the error of an oversized head, in bounded memory (the kernel's `ru_maxrss` of the
/// child), and ordinary trailers do not disturb the body.
@Suite("gannet and trailer fields")
struct CLITrailerTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    @Test func endlessTrailersAreAnErrorInBoundedMemory() async throws {
        // 64 MiB of 64-byte trailer lines: without a limit libcurl held them all (over 140 MiB).
        let (result, peak) = try await GannetBinary.runMeasuringPeakMemory(
            ["\(fault)/trailers/endless?mib=64&line=64"],
            timeout: .seconds(300)
        )
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.hasPrefix("gannet: error: The response has more than 500 header lines"), "\(result.err)")
        // The body came before its trailers and was printed as it arrived.
        #expect(result.out == "ok")
        #expect(peak < 64 << 20, "peak RSS \(peak >> 20) MiB")
    }

    @Test func smallTrailersLeaveTheBodyAsItIs() async throws {
        let result = try await GannetBinary.run(["--check-status", "\(fault)/trailers/small"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out == "hello trailers")
    }
}
