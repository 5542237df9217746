import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("async/await over the same engine")
struct AsyncTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    @Test func dataForRequest() async throws {
        let (data, response) = try await SessionManager().data(for: URLRequest(url: servers.nginx.adding("/small")))
        #expect(response.statusCode == 200)
        #expect(data == Data("ok".utf8))
    }

    /// The awaiting task posts `gannetTaskDidComplete` as it resumes (docs/core.md, async/await):
    /// no thread is woken for it, and an observer has seen it when `await` returns.
    @Test func theCompletionNotificationIsPostedWhenTheCallReturns() async throws {
        let manager = SessionManager()
        defer { manager.invalidateAndCancel() }
        let url = servers.nginx.adding("/small?notified=\(UUID().uuidString)")
        let posts = Mutex<[Bool]>([])
        let observer = NotificationCenter.default.addObserver(
            forName: .gannetTaskDidComplete,
            object: nil,
            queue: nil
        ) { note in
            guard let task = note.object as? SessionTask, task.originalRequest?.url == url else { return }
            posts.withLock { $0.append(note.userInfo?[TaskNotificationKey.responseData] != nil) }
        }
        defer { NotificationCenter.default.removeObserver(observer) }
        let (data, _) = try await manager.data(for: URLRequest(url: url))
        #expect(data == Data("ok".utf8))
        #expect(posts.withLock { $0 } == [true], "posted once, with the body, before the call returned")
        // A second call's notification is its own; the first is not posted again.
        _ = try await manager.data(for: URLRequest(url: servers.nginx.adding("/small")))
        #expect(posts.withLock { $0 } == [true])
    }

    @Test func transportErrorsAreThrown() async throws {
        await #expect(throws: URLError.self) {
            _ = try await SessionManager().data(for: URLRequest(url: URL(string: "http://127.0.0.1:1/")!))
        }
    }

    @Test func cancellingTheSwiftTaskCancelsTheTransfer() async throws {
        let manager = SessionManager()
        // The fault server's /stall never answers: only the cancellation can end this task with
        // `.cancelled` (else the request timeout's `.timedOut`), so no clock decides.
        let url = servers.url(.stall)
        let work = Task { try await manager.data(for: URLRequest(url: url)) }
        // Cancelled once the transfer runs (not 300 ms later, by which a loaded machine may not
        // have started it): the cancellation reaches a transfer, not a task yet to be made.
        #expect(await eventually(within: 60) { manager.tasks.first?.state == .running })
        work.cancel()
        do {
            _ = try await work.value
            Issue.record("expected cancellation")
        } catch {
            #expect((error as? URLError)?.code == .cancelled)
        }
        #expect(manager.tasks.isEmpty)
    }

    @Test func uploadFromFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-async-\(UUID()).txt")
        try Data("streamed from disk".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var request = URLRequest(url: servers.httpbin.adding("/post"))
        request.httpMethod = "POST"
        let (data, _) = try await SessionManager().upload(for: request, fromFile: file)
        #expect(try json(data)["data"] as? String == "streamed from disk")
    }

    @Test func valueUsesTheSerializer() async throws {
        struct Length: ResponseSerializing {
            func serialize(_ input: ResponseInput) throws -> Int {
                if let error = input.error { throw error }
                return (input.response?.statusCode ?? 0) * 1000 + (input.data?.count ?? 0)
            }
        }
        let value = try await SessionManager().value(
            for: URLRequest(url: servers.nginx.adding("/small")),
            serializer: Length()
        )
        #expect(value == 200_002)
    }
}
