public import Foundation

/// What the fault server did for one ``FaultRoute/heldFile(key:file:prefix:)`` key
/// (Tests/Servers/held_routes.py).
public struct HeldFileStats: Decodable, Sendable, Equatable {
    /// One request for the held file.
    public struct Request: Decodable, Sendable, Equatable {
        /// 200, or 206 for a range request.
        public let status: Int
        /// The first byte sent: 0, or the start of the range.
        public let rangeStart: Int
        /// Body bytes written to the connection.
        public let sent: Int
        /// Whether the whole body (or range) was sent.
        public let completed: Bool
        /// Whether the client closed the connection first.
        public let aborted: Bool

        enum CodingKeys: String, CodingKey {
            case status, sent, completed, aborted
            case rangeStart = "range_start"
        }
    }

    /// Requests waiting for their release now.
    public let held: Int
    /// Every request for the key, in the order received.
    public let requests: [Request]
}

extension FaultRoute {
    /// The file at `file` (named `gannet-held-*`, see ``TestServers/heldFile(_:)``): headers and
    /// its first `prefix` bytes, then nothing until ``heldRelease(key:)`` or the client closes;
    /// a `Range: bytes=A-` request gets the rest as a 206. So a test interrupts a transfer that
    /// no machine speed can finish first.
    public static func heldFile(key: String, file: URL, prefix: Int) -> FaultRoute {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        let path = file.path.addingPercentEncoding(withAllowedCharacters: allowed) ?? file.path
        return FaultRoute("/held/file?key=\(key)&path=\(path)&prefix=\(prefix)")
    }

    /// Releases every request held for `key`, now and later.
    public static func heldRelease(key: String) -> FaultRoute { FaultRoute("/held/release?key=\(key)") }

    /// ``HeldFileStats`` for `key`, as JSON.
    public static func heldStats(key: String) -> FaultRoute { FaultRoute("/held/stats?key=\(key)") }
}

extension TestServers {
    /// A new file of `bytes` random bytes in the temporary directory, named so that
    /// ``FaultRoute/heldFile(key:file:prefix:)`` serves it, and its contents.
    public func heldFile(bytes: Int) throws -> (URL, Data) {
        var generator = SystemRandomNumberGenerator()
        let words = (0..<(bytes + 7) / 8).map { _ in generator.next() as UInt64 }
        let data = words.withUnsafeBytes { Data($0.prefix(bytes)) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-held-\(UUID().uuidString)")
        try data.write(to: url)
        return (url, data)
    }

    /// A held body of `bytes` random bytes whose first `prefix` bytes are sent at once: the
    /// route (under a new key), the key, the file to delete after the test, and its contents.
    public func heldBody(bytes: Int, prefix: Int) throws -> (route: FaultRoute, key: String, file: URL, data: Data) {
        let (file, data) = try heldFile(bytes: bytes)
        let key = UUID().uuidString
        return (.heldFile(key: key, file: file, prefix: prefix), key, file, data)
    }

    /// The fault server's record of `key`'s held-file requests.
    ///
    /// Read with ``LoopbackHTTP`` (not the code under test) on a Dispatch thread: the read
    /// blocks, and Swift Testing's cooperative pool has only as many threads as cores.
    public func heldFileStats(key: String) async throws -> HeldFileStats {
        let body = try await loopbackGet(url(.heldStats(key: key)))
        return try JSONDecoder().decode(HeldFileStats.self, from: Data(body.utf8))
    }

    /// Releases the requests held for `key`.
    public func releaseHeldFile(key: String) async throws {
        _ = try await loopbackGet(url(.heldRelease(key: key)))
    }

    /// Waits until `key`'s record satisfies `condition`; throws a ``TestServerError`` naming
    /// `what` after `seconds` (generous: only a request that never comes reaches it).
    public func waitForHeldFile(
        key: String,
        _ what: String,
        within seconds: Double = 60,
        until condition: (HeldFileStats) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            let stats = try await heldFileStats(key: key)
            if condition(stats) { return }
            guard ContinuousClock.now < deadline else {
                throw TestServerError("Timed out after \(seconds) s waiting for \(what); last record \(stats)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private func loopbackGet(_ url: URL) async throws -> String {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try LoopbackHTTP.get(url) })
            }
        }
    }
}
