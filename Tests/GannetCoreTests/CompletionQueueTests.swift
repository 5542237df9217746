import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The manager's own completion queue is serial, whichever way a response enters it: with
/// `sync` from the processing queue when nothing waits there (the handler then runs on the
/// thread that serialized), with `async` otherwise (docs/core.md, "Completion").
@Suite("The manager's own completion queue")
struct CompletionQueueTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// Records the thread it runs on, so that a handler can tell whether it runs there too.
    struct ThreadRecording: ResponseSerializing {
        func serialize(_ input: ResponseInput) throws -> UInt {
            if let error = input.error { throw error }
            return UInt(pthread_self())
        }
    }

    /// How many handlers ran at once, at most.
    final class Overlap: Sendable {
        private let state = Mutex((inside: 0, most: 0))
        var most: Int { state.withLock { $0.most } }
        func enter() {
            state.withLock {
                $0.inside += 1
                $0.most = max($0.most, $0.inside)
            }
        }
        func leave() { state.withLock { $0.inside -= 1 } }
    }

    @Test func handlersRunOneAtATimeWhenManyResponsesArriveTogether() async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        let overlap = Overlap()
        let count = 300
        let completed = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<count {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        let url = servers.nginx.adding("/small?\(index)")
                        manager.dataTask(with: URLRequest(url: url), serializer: ThreadRecording()) { response in
                            overlap.enter()
                            usleep(200)  // widens the window in which a second handler would overlap
                            overlap.leave()
                            continuation.resume(returning: response.error == nil)
                        }.resume()
                    }
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(completed == count)
        #expect(overlap.most == 1, "handlers overlapped on a serial queue")
    }

    @Test func aLoneResponseRunsItsHandlerOnTheThreadThatSerializedIt() async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        var sameThread = 0
        for index in 0..<20 {
            let (serializedOn, handledOn) = await withCheckedContinuation { continuation in
                let url = servers.nginx.adding("/small?\(index)")
                manager.dataTask(with: URLRequest(url: url), serializer: ThreadRecording()) { response in
                    let here = UInt(pthread_self())
                    continuation.resume(returning: (response.value, here))
                }.resume()
            }
            #expect(serializedOn != nil)
            if serializedOn == handledOn { sameThread += 1 }
        }
        // One at a time, nothing waits on the queue: `sync`, no second thread hop. Not every
        // time: a thread preempted between its handler and its bookkeeping sends the next one
        // with `async`.
        #expect(sameThread > 0, "every handler hopped to another thread")
    }
}
