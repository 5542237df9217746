import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A failed transfer reaches the completion handler as its transport error, whatever the
/// response serializer does with its `error` input: AFNetworking's task delegate never runs the
/// serializer when the task failed (docs/core.md, "Response serializers").
@Suite("A transport error is never serialized into a success")
struct TransportErrorDeliveryTests {
    /// A third-party serializer that ignores its `error` input and counts its calls: before the
    /// fix it turned a truncated body into `.success(500)`.
    struct IgnoresErrors: ResponseSerializing {
        let calls: CallCounter
        func serialize(_ input: ResponseInput) throws -> Int {
            calls.increment()
            return input.data?.count ?? 0
        }
    }

    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// `Content-Length: 1000`, 500 bytes, close: a transfer that fails after a body arrived.
    private func truncatedRequest(_ marker: String) -> URLRequest {
        URLRequest(url: servers.url(FaultRoute("\(FaultRoute.truncated.pathAndQuery)?transport-error=\(marker)")))
    }

    @Test func theCompletionHandlerGetsTheTransportErrorAndTheNotificationItsKey() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let marker = UUID().uuidString
        let recorder = TaskNotificationRecorder(names: [.gannetTaskDidComplete]) {
            $0.originalRequest?.url?.query?.contains(marker) == true
        }
        let calls = CallCounter()
        let taskBox = Mutex<SessionTask?>(nil)
        let response = await withCheckedContinuation { continuation in
            let task = manager.dataTask(with: truncatedRequest(marker), serializer: IgnoresErrors(calls: calls)) {
                continuation.resume(returning: $0)
            }
            taskBox.withLock { $0 = task }
            task.resume()
        }
        let task = try #require(taskBox.withLock { $0 })
        #expect(response.value == nil, "a failed transfer became .success(\(String(describing: response.value)))")
        #expect(response.error is URLError, "\(String(describing: response.error))")
        #expect(task.error is URLError)
        #expect(calls.value == 0, "the serializer ran over a transport error")
        let completed = try #require(await recorder.wait(for: .gannetTaskDidComplete).first)
        #expect(completed.userInfo[TaskNotificationKey.error] is URLError)
        #expect(completed.userInfo[TaskNotificationKey.serializedResponse] == nil)
    }

    @Test func theAsyncAPIThrowsTheTransportError() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let calls = CallCounter()
        let response = await manager.response(
            for: truncatedRequest(UUID().uuidString),
            serializer: IgnoresErrors(calls: calls)
        )
        #expect(response.value == nil)
        #expect(response.error is URLError, "\(String(describing: response.error))")
        #expect(calls.value == 0)
    }

    @Test func theAFNetworkingShapedCompletionGetsTheErrorAndNoObject() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let calls = CallCounter()
        manager.responseSerializer = IgnoresErrors(calls: calls)
        let (object, error) = await withCheckedContinuation { continuation in
            manager.dataTask(with: truncatedRequest(UUID().uuidString)) { _, object, error in
                continuation.resume(returning: (object.map { "\($0)" }, error))
            }.resume()
        }
        #expect(object == nil)
        #expect(error is URLError, "\(String(describing: error))")
        #expect(calls.value == 0)
    }
}
