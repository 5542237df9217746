import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Shared between a ``BlockingInputStream`` (read on whatever thread the engine chose) and the
/// test: whether a read is blocked, and the release.
final class StreamGate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let blocked = Mutex(false)

    /// Whether a `read` is blocked right now.
    var isBlocked: Bool { blocked.withLock { $0 } }
    func release() { semaphore.signal() }

    func block(atMost limit: DispatchTimeInterval) {
        blocked.withLock { $0 = true }
        _ = semaphore.wait(timeout: .now() + limit)
        blocked.withLock { $0 = false }
    }
}

/// A caller's stream whose first `read` blocks until its gate is released (or for `limit` at
/// most), then yields `payload`: what a pipe or a socket-backed stream does when its writer is
/// slow. Used by one thread at a time, as streams are.
final class BlockingInputStream: InputStream {
    let gate = StreamGate()
    private let limit: DispatchTimeInterval
    private let payload: Data
    private var offset = 0
    private var blockedOnce = false
    private var status = Stream.Status.notOpen

    init(payload: Data, blockingFor limit: DispatchTimeInterval) {
        self.payload = payload
        self.limit = limit
        super.init(data: Data())
    }

    override func open() { status = .open }
    override func close() { status = .closed }
    override var streamStatus: Stream.Status { status }
    override var hasBytesAvailable: Bool { offset < payload.count }
    override var streamError: (any Error)? { nil }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        if !blockedOnce {
            blockedOnce = true
            gate.block(atMost: limit)
        }
        let count = min(length, payload.count - offset)
        guard count > 0 else { return 0 }
        payload.withUnsafeBytes { source in
            buffer.update(from: source.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset, count: count)
        }
        offset += count
        return count
    }
}

/// Under FaultsSerialSuites: these tests hold connections to the fault server for seconds,
/// which the suites there that count this process's connections must not see.
extension FaultsSerialSuites {
    /// Issue 16, defect 4: a caller's InputStream is read off the engine thread.
    @Suite("Request body streams that block")
    struct BlockingBodyStreamTests {
        let servers: TestServers
        init() throws { servers = try TestServers.shared() }

        private func waitUntil(_ condition: () -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while !condition() {
                guard ContinuousClock.now < deadline else { throw GannetError(.timedOut, "the condition never held") }
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        @Test func aBlockedStreamStallsNoOtherTransferAndItsTimeoutStillFires() async throws {
            let manager = testManager(servers) { $0.timeoutIntervalForRequest = 2 }
            let stream = BlockingInputStream(payload: Data("late".utf8), blockingFor: .seconds(20))
            let gate = stream.gate
            defer { gate.release() }
            var upload = URLRequest(url: servers.url(.uploadDigest))
            upload.httpMethod = "POST"
            upload.httpBodyStream = stream
            async let blocked = perform(manager, upload)
            try await waitUntil { gate.isBlocked }

            let other = await perform(manager, URLRequest(url: servers.url(.ok)))
            #expect(other.response?.statusCode == 200)
            #expect(gate.isBlocked, "the other request waited for the blocked read")

            let result = await blocked
            #expect(gannetCode(result.error) == .timedOut, "\(String(describing: result.error))")
            #expect(gate.isBlocked, "the timeout waited for the blocked read")
        }

        @Test func aStreamThatBlocksBrieflyIsSentWhole() async throws {
            let manager = testManager(servers)
            let payload = Data((0..<100_000).map { UInt8($0 % 251) })
            let stream = BlockingInputStream(payload: payload, blockingFor: .seconds(20))
            let gate = stream.gate
            var upload = URLRequest(url: servers.url(.uploadDigest))
            upload.httpMethod = "POST"
            upload.httpBodyStream = stream
            async let response = perform(manager, upload)
            try await waitUntil { gate.isBlocked }
            gate.release()
            let result = await response
            let text = String(decoding: result.value ?? Data(), as: UTF8.self)
            #expect(text.hasPrefix("\(payload.count) "), "\(text) \(String(describing: result.error))")
        }
    }
}
