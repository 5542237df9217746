import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `EventSource` against the fault server's event-stream routes (Tests/Servers/event_stream_routes.py):
/// events split byte by byte, dropped connections, `Last-Event-ID`, `retry:`, 204, wrong types.
@Suite("EventSource")
struct EventSourceTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    private struct Log: Decodable {
        var last_event_ids: [String]
        var disconnects: Int
    }

    private func log(_ key: String) async throws -> Log {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let (data, _) = try await manager.data(for: URLRequest(url: servers.url(.eventLog(key: key))))
        return try JSONDecoder().decode(Log.self, from: data)
    }

    /// How long a condition may take: generous, because only a fault reaches it, and on a loaded
    /// machine (sanitizers, parallel builds) the first seconds of a run can all go to starting
    /// the test servers; the story's own bound is the hour's reconnection delay below.
    private static let patience = 120.0

    private static let storyEvents = [
        ServerSentEvent(type: "tick", data: "event 1", lastEventID: "1"),
        ServerSentEvent(type: "tick", data: "event 2", lastEventID: "2"),
        ServerSentEvent(type: "tick", data: "event 3", lastEventID: "3"),
        ServerSentEvent(type: "message", data: "four\nlines", lastEventID: "4"),
        ServerSentEvent(type: "message", data: "five", lastEventID: "5"),
    ]

    /// An hour between reconnections unless the server's `retry: 50` replaces it: a source that
    /// ignored `retry:` would not finish the story within the readiness wait, and fail.
    private func configuration() -> EventSource.Configuration {
        var configuration = EventSource.Configuration()
        configuration.reconnectionDelay = 3600
        return configuration
    }

    @Test func aDroppedStreamReconnectsWithLastEventIDAndRetryUntil204() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let key = UUID().uuidString
        let source = manager.eventSource(
            for: URLRequest(url: servers.url(.eventStory(key: key))),
            configuration: configuration()
        )
        let finished = Atomic<Bool>(false)
        let consumer = Task {
            var seen: [ServerSentEvent] = []
            for try await event in source.events { seen.append(event) }
            finished.store(true, ordering: .relaxed)
            return seen
        }
        let done = await eventually(within: Self.patience) { finished.load(ordering: .relaxed) }
        #expect(done, "the story did not end: was the server's retry: 50 ignored?")
        if !done { source.cancel() }
        let seen = try await consumer.value
        // The half events before each drop (one with `id: 99`) are discarded, never dispatched.
        #expect(seen == Self.storyEvents)
        #expect(source.lastEventID == "5")
        #expect(source.reconnectionDelay == 0.05)
        let log = try await log(key)
        #expect(log.last_event_ids == ["", "3", "5"])
    }

    @Test func callbacksOnAQueueSeeOpensEventsAndACleanEnd() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let queue = DispatchQueue(label: "event-source-test")
        struct Seen {
            var opens: [Int] = []
            var events: [ServerSentEvent] = []
            var completed = false
            var error: String?
            var offQueue = 0
        }
        let seen = Mutex(Seen())
        let key = UUID().uuidString
        let source = manager.eventSource(
            for: URLRequest(url: servers.url(.eventStory(key: key))),
            configuration: configuration()
        )
        let marker = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: marker, value: true)
        let onQueue = { @Sendable in
            if DispatchQueue.getSpecific(key: marker) != true { seen.withLock { $0.offQueue += 1 } }
        }
        source.start(
            queue: queue,
            onOpen: { response in
                onQueue()
                seen.withLock { $0.opens.append(response.statusCode) }
            },
            onEvent: { event in
                onQueue()
                seen.withLock { $0.events.append(event) }
            },
            onComplete: { error in
                onQueue()
                seen.withLock {
                    $0.completed = true
                    $0.error = error.map { "\($0)" }
                }
            }
        )
        let completed = await eventually(within: Self.patience) { seen.withLock { $0.completed } }
        #expect(completed, "the story did not end: was the server's retry: 50 ignored?")
        if !completed { source.cancel() }
        let final = seen.withLock { $0 }
        #expect(final.events == Self.storyEvents)
        #expect(final.opens == [200, 200])
        #expect(final.error == nil)
        #expect(final.offQueue == 0)
    }

    @Test func aNonEventStreamContentTypeFailsWithoutReconnecting() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let source = manager.eventSource(for: URLRequest(url: servers.url(.eventStreamWrongType)))
        await #expect {
            for try await _ in source.events {}
        } throws: { error in
            let error = error as? StreamingError
            return error?.code == .notEventStream && error?.contentType == "text/plain" && error?.statusCode == 200
        }
    }

    @Test func aStatusOtherThan200FailsAnd204EndsCleanly() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let failing = manager.eventSource(for: URLRequest(url: servers.url(.status(503))))
        await #expect {
            for try await _ in failing.events {}
        } throws: { ($0 as? StreamingError)?.code == .unexpectedStatus && ($0 as? StreamingError)?.statusCode == 503 }
        let stopped = manager.eventSource(for: URLRequest(url: servers.url(.status(204))))
        var count = 0
        for try await _ in stopped.events { count += 1 }
        #expect(count == 0)
    }

    @Test func aLineThatNeverEndsFailsAtTheLimit() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        var configuration = EventSource.Configuration()
        configuration.maximumEventBytes = 64 << 10
        let source = manager.eventSource(
            for: URLRequest(url: servers.url(.eventStreamNeverEnds)),
            configuration: configuration
        )
        await #expect {
            for try await _ in source.events {}
        } throws: { ($0 as? StreamingError)?.code == .lineTooLong }
    }

    @Test func cancelEndsTheSequenceAndClosesTheConnection() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let key = UUID().uuidString
        let source = manager.eventSource(for: URLRequest(url: servers.url(.eventStreamForever(key: key))))
        var count = 0
        for try await event in source.events {
            count += 1
            #expect(event.lastEventID == String(count))
            if count == 3 { source.cancel() }
        }
        #expect(count == 3)
        #expect(source.isCancelled)
        #expect(
            await eventuallyAsync(within: Self.patience) { ((try? await log(key))?.disconnects ?? 0) == 1 },
            "the server never saw the client go"
        )
        #expect(await eventually(within: Self.patience) { manager.tasks.isEmpty })
    }

    @Test func cancellingTheIteratingTaskClosesTheConnection() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let key = UUID().uuidString
        let source = manager.eventSource(for: URLRequest(url: servers.url(.eventStreamForever(key: key))))
        let received = Atomic<Int>(0)
        let consumer = Task {
            for try await _ in source.events { received.add(1, ordering: .relaxed) }
        }
        #expect(await eventually(within: Self.patience) { received.load(ordering: .relaxed) >= 2 })
        consumer.cancel()
        _ = await consumer.result
        #expect(
            await eventuallyAsync(within: Self.patience) { ((try? await log(key))?.disconnects ?? 0) == 1 },
            "the server never saw the client go"
        )
        #expect(await eventually(within: Self.patience) { manager.tasks.isEmpty })
    }

    @Test func aRefusedConnectionIsRetriedUpToTheLimit() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        var configuration = EventSource.Configuration()
        configuration.reconnectionDelay = 0.01
        configuration.maximumReconnectionAttempts = 2
        // Port 1 on loopback: nothing listens, every connection is refused at once.
        let source = manager.eventSource(
            for: URLRequest(url: URL(string: "http://127.0.0.1:1/events")!),
            configuration: configuration
        )
        await #expect {
            for try await _ in source.events {}
        } throws: { error in
            guard let error = error as? StreamingError, error.code == .reconnectionLimitReached else { return false }
            return (error.underlyingError as? URLError)?.code == .cannotConnectToHost
        }
    }
}
