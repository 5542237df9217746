import Foundation
import GannetReachability
import Synchronization
import Testing

/// The manager against the real kernel of the test's own namespace, on loopback targets (whose
/// reachability does not depend on the machine's network).
@Suite("NetworkReachabilityManager on loopback")
struct ReachabilityManagerTests {
    @Test(
        "An address target: the stream, the change block and the notification all get the status; stopping ends the stream"
    )
    func loopbackAddress() async throws {
        let manager = try NetworkReachabilityManager(address: "127.0.0.1")
        #expect(manager.status == .unknown && !manager.isMonitoring)
        let blockStatuses = Mutex<[NetworkReachabilityStatus]>([])
        manager.setReachabilityStatusChangeBlock { status in blockStatuses.withLock { $0.append(status) } }
        let (notified, notifiedContinuation) = AsyncStream.makeStream(of: NetworkReachabilityStatus.self)
        let observer = NotificationCenter.default.addObserver(
            forName: .gannetReachabilityDidChange,
            object: manager,
            queue: nil
        ) { note in
            if let status = note.userInfo?[ReachabilityNotificationKey.status] as? NetworkReachabilityStatus {
                notifiedContinuation.yield(status)
            }
        }
        defer { NotificationCenter.default.removeObserver(observer) }

        let updates = manager.statusUpdates
        try manager.startMonitoring()
        try manager.startMonitoring()  // a second start is a no-op
        #expect(manager.isMonitoring)
        let first = try await firstElement(of: updates)
        #expect(first == .reachableViaOther)
        #expect(try await firstElement(of: notified) == .reachableViaOther)
        #expect(manager.status == .reachableViaOther && manager.isReachable && manager.isReachableViaOther)
        #expect(!manager.isReachableViaEthernet && !manager.isReachableViaWiFi)
        #expect(blockStatuses.withLock { $0 } == [.reachableViaOther])

        // A stream made while monitoring starts with the current status.
        let late = manager.statusUpdates
        #expect(try await firstElement(of: late) == .reachableViaOther)

        manager.stopMonitoring()
        #expect(manager.status == .unknown && !manager.isMonitoring)
        let remaining = try await collect(late)
        #expect(remaining.isEmpty, "the stream finishes when monitoring stops")
    }

    @Test("A host name is resolved once with getaddrinfo; localhost is reachable through loopback")
    func localhostDomain() async throws {
        let manager = try NetworkReachabilityManager(domain: "localhost")
        let updates = manager.statusUpdates
        try manager.startMonitoring()
        defer { manager.stopMonitoring() }
        #expect(try await firstElement(of: updates) == .reachableViaOther)
    }

    @Test("A name that does not resolve is not reachable")
    func unresolvableDomain() async throws {
        // .invalid never resolves (RFC 6761), and /etc/hosts does not name it.
        let manager = try NetworkReachabilityManager(domain: "gannet-reachability-test.invalid")
        let updates = manager.statusUpdates
        try manager.startMonitoring()
        defer { manager.stopMonitoring() }
        #expect(try await firstElement(of: updates) == .notReachable)
    }

    @Test("Start, stop and start again; a consumer that cancels is dropped")
    func restartAndCancel() async throws {
        let queue = DispatchQueue(label: "reachability-test.delivery")
        let manager = try NetworkReachabilityManager(address: "::1", queue: queue)
        #expect(manager.queue === queue)
        for _ in 0..<3 {
            let updates = manager.statusUpdates
            try manager.startMonitoring()
            #expect(try await firstElement(of: updates) == .reachableViaOther)
            manager.stopMonitoring()
        }
        try manager.startMonitoring()
        defer { manager.stopMonitoring() }
        let consumer = Task {
            var seen = 0
            for await _ in manager.statusUpdates { seen += 1 }
            return seen
        }
        consumer.cancel()
        _ = await consumer.value  // returns: cancelling the consumer ends its iteration
    }
}

struct TimedOut: Error, CustomStringConvertible {
    var description: String { "no element within the timeout" }
}

/// The first element, or `TimedOut` after a generous bound (the machine is loaded; this only
/// tells "arrived" from "never arrived").
func firstElement<Element: Sendable>(
    of stream: AsyncStream<Element>,
    timeout: Duration = .seconds(20)
) async throws -> Element {
    try await withThrowingTaskGroup(of: Element?.self) { group in
        group.addTask {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TimedOut()
        }
        defer { group.cancelAll() }
        guard let element = try await group.next() ?? nil else { throw TimedOut() }
        return element
    }
}

/// Every remaining element until the stream finishes, or `TimedOut`.
func collect<Element: Sendable>(
    _ stream: AsyncStream<Element>,
    timeout: Duration = .seconds(20)
) async throws -> [Element] {
    try await withThrowingTaskGroup(of: [Element].self) { group in
        group.addTask {
            var elements: [Element] = []
            for await element in stream { elements.append(element) }
            return elements
        }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw TimedOut()
        }
        defer { group.cancelAll() }
        return try await group.next() ?? []
    }
}
