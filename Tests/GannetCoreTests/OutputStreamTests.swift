import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Data tasks that write their body to a caller's `OutputStream` (AFURLConnectionOperation's
/// `outputStream`): byte-exact, completed after the last byte, failed by a stream that fails or
/// stays full, and never holding up the manager's other transfers.
@Suite("Data tasks writing to an OutputStream")
struct OutputStreamTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// An output stream whose `write` the test controls. Writes land in `received`.
    final class ScriptedStream: OutputStream {
        // The writer calls it on its own queue; the test reads `received` and the flags
        // through the Mutex only.
        enum Behaviour {
            /// Takes everything.
            case accept
            /// Takes `bytes`, then every write fails with `error`.
            case failAfter(bytes: Int, error: NSError)
            /// Takes nothing: every write returns 0, as a full stream does.
            case full
            /// Blocks inside `write` until `release` is signalled, then takes everything.
            case block(release: DispatchSemaphore)
        }

        private struct Record {
            var received = Data()
            var opened = false
            var closed = false
            var blocked = false
            var failed = false
            var fullWrites = 0
        }

        let behaviour: Behaviour
        private let record = Mutex(Record())

        init(_ behaviour: Behaviour) {
            self.behaviour = behaviour
            super.init(toMemory: ())
        }

        required init(toMemory: ()) {
            behaviour = .accept
            super.init(toMemory: ())
        }

        var received: Data { record.withLock { $0.received } }
        var isClosed: Bool { record.withLock { $0.closed } }
        var isBlocked: Bool { record.withLock { $0.blocked } }
        /// How many times a `.full` stream answered 0.
        var fullWrites: Int { record.withLock { $0.fullWrites } }

        override func open() { record.withLock { $0.opened = true } }
        override func close() { record.withLock { $0.closed = true } }
        override var streamStatus: Stream.Status {
            record.withLock { $0.failed ? .error : $0.closed ? .closed : $0.opened ? .open : .notOpen }
        }
        override var streamError: (any Error)? {
            guard record.withLock({ $0.failed }), case .failAfter(_, let error) = behaviour else { return nil }
            return error
        }
        override var hasSpaceAvailable: Bool { true }

        override func write(_ buffer: UnsafePointer<UInt8>, maxLength length: Int) -> Int {
            switch behaviour {
            case .accept:
                record.withLock { $0.received.append(buffer, count: length) }
                return length
            case .failAfter(let limit, _):
                return record.withLock { record in
                    let room = limit - record.received.count
                    if room <= 0 {
                        record.failed = true
                        return -1
                    }
                    let taken = min(room, length)
                    record.received.append(buffer, count: taken)
                    return taken
                }
            case .full:
                record.withLock { $0.fullWrites += 1 }
                return 0
            case .block(let release):
                record.withLock { $0.blocked = true }
                release.wait()
                release.signal()
                record.withLock {
                    $0.blocked = false
                    $0.received.append(buffer, count: length)
                }
                return length
            }
        }
    }

    final class Completions: Sendable {
        private let responses = Mutex<[DataResponse<Data>]>([])
        func record(_ response: DataResponse<Data>) { responses.withLock { $0.append(response) } }
        var all: [DataResponse<Data>] { responses.withLock { $0 } }
    }

    /// Starts a task writing `url`'s body to `stream`; returns the task and its completions.
    private func start(
        _ manager: SessionManager,
        _ url: URL,
        into stream: OutputStream,
        timeout: TimeInterval? = nil
    ) -> (SessionTask, Completions) {
        var request = URLRequest(url: url)
        if let timeout { request.timeoutInterval = timeout }
        let completions = Completions()
        let task = manager.dataTask(with: request, writingTo: stream, serializer: .passthrough) { response in
            completions.record(response)
        }
        task.resume()
        return (task, completions)
    }

    private func body(_ url: URL, _ manager: SessionManager) async throws -> Data {
        let response = await manager.response(for: URLRequest(url: url), serializer: .passthrough)
        return try #require(response.data)
    }

    @Test func aTenMegabyteBodyArrivesWholeInAFileStreamBeforeTheCompletion() async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding("/files/10m.bin")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-output-\(UUID()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let stream = try #require(OutputStream(toFileAtPath: path, append: false))
        let sizeAtCompletion = Mutex<Int?>(nil)
        let done = Mutex(false)
        let task = manager.dataTask(with: URLRequest(url: url), writingTo: stream, serializer: .passthrough) {
            response in
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? -1
            sizeAtCompletion.withLock { $0 = response.error == nil ? size : -2 }
            done.withLock { $0 = true }
        }
        task.resume()
        #expect(await eventually(within: 60) { done.withLock { $0 } })
        let expected = try await body(url, manager)
        #expect(expected.count == 10 << 20)
        #expect(sizeAtCompletion.withLock { $0 } == expected.count, "the completion came before the last byte")
        #expect(FileManager.default.contents(atPath: path) == expected)
        #expect(task.state == .completed && task.error == nil)
    }

    @Test func aStreamThatFailsMidBodyFailsTheTaskWithItsError() async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        let streamError = NSError(domain: "test.disk", code: 28, userInfo: [NSLocalizedDescriptionKey: "disk full"])
        let stream = ScriptedStream(.failAfter(bytes: 300_000, error: streamError))
        let (task, completions) = start(manager, servers.nginx.adding("/files/10m.bin"), into: stream)
        #expect(await eventually(within: 60) { !completions.all.isEmpty })
        let error = try #require(completions.all.first?.error as? URLError)
        #expect(error.code == .cannotWriteToFile)
        #expect(gannetCode(error) == .outputStreamFailed)
        let gannet = try #require(error.errorUserInfo[NSUnderlyingErrorKey] as? GannetError)
        #expect((gannet.underlyingError as? NSError)?.code == 28)
        #expect(stream.received.count == 300_000)
        #expect(task.state == .completed)
        // Exactly one completion, and the stream is closed.
        #expect(await eventually(within: 30) { stream.isClosed })
        #expect(completions.all.count == 1)
    }

    @Test func aStreamThatCannotBeOpenedFailsTheTask() async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        let stream = try #require(OutputStream(toFileAtPath: "/nonexistent-\(UUID())/body", append: false))
        let (_, completions) = start(manager, servers.nginx.adding("/files/1m.bin"), into: stream)
        #expect(await eventually(within: 60) { !completions.all.isEmpty })
        #expect(
            gannetCode(completions.all.first?.error) == .outputStreamFailed,
            "\(String(describing: completions.all.first?.error))"
        )
    }

    /// A body larger than the writer's 1 MiB high-water mark fails while the transfer is paused
    /// for the stream; one that fits fails after the transfer ended, waiting for its last bytes.
    ///
    /// The request's timeout is both the network's idle limit and the stream's: 10 s, so that
    /// the response always arrives inside it even on a loaded machine (at 1 s, an engine thread
    /// that waited for a core timed the transfer out before the stream could stall).
    @Test(arguments: ["/files/10m.bin", "/small"])
    func aStreamThatStaysFullFailsAtTheRequestTimeout(path: String) async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        let stream = ScriptedStream(.full)
        let (_, completions) = start(manager, servers.nginx.adding(path), into: stream, timeout: 10)
        #expect(await eventually { !completions.all.isEmpty })
        let error = completions.all.first?.error
        #expect(gannetCode(error) == .outputStreamFailed, "\(String(describing: error))")
        #expect("\(String(describing: error))".contains("took no byte"), "\(String(describing: error))")
        #expect(await eventually { stream.isClosed })
        #expect(completions.all.count == 1)
    }

    /// A transfer that ends another way (here cancelled, as a network timeout would) while its
    /// stream stays full: the writer stops retrying the write and closes the stream. It used to
    /// retry every 2 ms for ever, with the stream left open.
    @Test func aTransferEndedWhileTheStreamStaysFullClosesIt() async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        let stream = ScriptedStream(.full)
        let (task, completions) = start(manager, servers.nginx.adding("/files/10m.bin"), into: stream, timeout: 600)
        #expect(await eventually { stream.fullWrites > 1 })
        task.cancel()
        #expect(await eventually { !completions.all.isEmpty })
        let error = completions.all.first?.error
        #expect((error as? URLError)?.code == .cancelled, "\(String(describing: error))")
        // The stream is closed on the writer's queue after its last write returns: closed
        // means the retries ended.
        #expect(await eventually { stream.isClosed })
    }

    /// While one task's stream is stuck inside `write`, another request of the same manager
    /// completes: the engine thread never writes to a stream. Then the stuck task can still be
    /// cancelled at once, and a released one finishes byte-exact.
    @Test func aBlockedStreamHoldsUpNoOtherTransfer() async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding("/files/1m.bin")
        let release = DispatchSemaphore(value: 0)
        let blocked = ScriptedStream(.block(release: release))
        let (task, completions) = start(manager, url, into: blocked)
        #expect(await eventually(within: 60) { blocked.isBlocked })

        let other = await manager.response(
            for: URLRequest(url: servers.nginx.adding("/small")),
            serializer: .passthrough
        )
        #expect(other.response?.statusCode == 200, "\(String(describing: other.error))")
        #expect(blocked.isBlocked, "the stream was released before the other request ended")
        #expect(completions.all.isEmpty)

        release.signal()
        #expect(await eventually(within: 60) { !completions.all.isEmpty })
        #expect(completions.all.first?.error == nil, "\(String(describing: completions.all.first?.error))")
        #expect(blocked.received == (try await body(url, manager)))
        #expect(task.state == .completed)

        // Cancelled while stuck: the completion does not wait for the stream.
        let stuck = DispatchSemaphore(value: 0)
        let second = ScriptedStream(.block(release: stuck))
        let (secondTask, secondCompletions) = start(manager, url, into: second)
        #expect(await eventually(within: 60) { second.isBlocked })
        secondTask.cancel()
        #expect(await eventually(within: 30) { !secondCompletions.all.isEmpty })
        #expect((secondCompletions.all.first?.error as? URLError)?.code == .cancelled)
        stuck.signal()
        #expect(await eventually(within: 30) { second.isClosed })
    }
}
