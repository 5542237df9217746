import Foundation

/// What the fault server saw for one ``FaultRoute/concurrencyHold(key:milliseconds:)`` key
/// (Tests/Servers/concurrency_routes.py).
public struct HeldRequests: Decodable, Sendable, Equatable {
    /// The most requests held at once.
    public let max: Int
    /// Requests held now.
    public let inFlight: Int
    /// Requests the server has received.
    public let started: Int
    /// Requests answered after their hold.
    public let finished: Int
    /// Requests whose client closed the connection during the hold.
    public let aborted: Int

    enum CodingKeys: String, CodingKey {
        case max, started, finished, aborted
        case inFlight = "in_flight"
    }
}

extension TestServers {
    /// The fault server's counts for `key`.
    ///
    /// Read with ``LoopbackHTTP`` (not the code under test) on a Dispatch thread: the read blocks,
    /// and Swift Testing's cooperative pool has only as many threads as cores.
    public func heldRequests(key: String) async throws -> HeldRequests {
        let url = url(.concurrencyStats(key: key))
        let body = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try LoopbackHTTP.get(url) })
            }
        }
        return try JSONDecoder().decode(HeldRequests.self, from: Data(body.utf8))
    }

    /// Waits until the fault server's counts for `key` satisfy `condition`: the readiness signal
    /// for a test that must act while a request is in flight, instead of a fixed delay.
    ///
    /// Throws a ``TestServerError`` naming `what` after `seconds` (generous: the machine may be
    /// loaded; only a request that never arrives, or a connection never closed, reaches it).
    public func waitForHeldRequests(
        key: String,
        _ what: String,
        within seconds: Double = 60,
        until condition: (HeldRequests) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            let counts = try await heldRequests(key: key)
            if condition(counts) { return }
            guard ContinuousClock.now < deadline else {
                throw TestServerError("Timed out after \(seconds) s waiting for \(what); last counts \(counts)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
