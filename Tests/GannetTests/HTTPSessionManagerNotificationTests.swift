import Foundation
import Gannet
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP manager's tasks notify as AFHTTPSessionManager's: stamped with the session's
/// description, and carrying the serializer the caller installed, not the type-erasing wrapper
/// the manager runs it through (docs/core.md, "Notifications").
@Suite("HTTPSessionManager notifications")
struct HTTPSessionManagerNotificationTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// A validating serializer told apart by `mark`.
    struct Marked: ResponseValidating {
        let mark = UUID()
        var acceptableStatusCodes = IndexSet(integersIn: 200..<300)
        var acceptableContentTypes: Set<MediaType>? = nil

        func serialize(_ input: ResponseInput) throws -> String {
            if let error = input.error { throw error }
            try validate(input)
            return String(decoding: input.data ?? Data(), as: UTF8.self)
        }
    }

    func recorder(_ token: String) -> TaskNotificationRecorder {
        TaskNotificationRecorder { $0.originalRequest?.url?.absoluteString.contains(token) == true }
    }

    @Test func theSerializerKeyHoldsTheInstalledSerializerOnSuccessAndFailure() async throws {
        let manager = try makeManager(servers.nginx)
        let serializer = Marked()
        manager.responseSerializer = serializer
        let token = UUID().uuidString
        let notes = recorder(token)
        let succeeded = await deliver { success, failure in
            manager.GET("small", parameters: ["t": token], success: success, failure: failure)
        }
        #expect(succeeded.value as? String == "ok")
        let failed = await deliver { success, failure in
            manager.GET("files/missing-\(token).bin", success: success, failure: failure)
        }
        #expect((failed.error as? ResponseSerializationError)?.statusCode == 404)
        let task = try #require(succeeded.returnedTask)
        #expect(task.taskDescription == manager.session.taskDescriptionForSessionTasks)

        let completed = await notes.wait(for: .gannetTaskDidComplete, count: 2)
        let ok = try #require(completed.first { $0.task === succeeded.returnedTask })
        #expect((ok.userInfo[TaskNotificationKey.responseSerializer] as? Marked)?.mark == serializer.mark)
        #expect(ok.userInfo[TaskNotificationKey.serializedResponse] as? String == "ok")
        #expect(ok.userInfo[TaskNotificationKey.responseData] as? Data == Data("ok".utf8))
        #expect(ok.userInfo[TaskNotificationKey.error] == nil)

        let notFound = try #require(completed.first { $0.task === failed.returnedTask })
        #expect((notFound.userInfo[TaskNotificationKey.responseSerializer] as? Marked)?.mark == serializer.mark)
        #expect((notFound.userInfo[TaskNotificationKey.error] as? ResponseSerializationError)?.statusCode == 404)
        #expect(notFound.userInfo[TaskNotificationKey.serializedResponse] == nil)
        #expect((notFound.userInfo[TaskNotificationKey.responseData] as? Data)?.isEmpty == false, "nginx's 404 page")
        #expect(notFound.userInfo[TaskNotificationKey.metrics] is TaskMetrics)
    }

    @Test func aNilValueLeavesTheSerializedResponseKeyOut() async throws {
        // The default JSON serializer answers nil for a 204's empty body.
        let manager = try makeManager(servers.httpbin)
        let token = UUID().uuidString
        let notes = recorder(token)
        let response = try await manager.get("status/204", parameters: ["t": token])
        // `value` is `Output?` and this serializer's output is `(any Sendable)?`: a success
        // whose output is nil (docs/core.md, "Responses").
        #expect(response.error == nil)
        #expect(response.value ?? nil == nil)
        let note = try #require(await notes.wait(for: .gannetTaskDidComplete).first)
        #expect(note.userInfo.keys.contains(TaskNotificationKey.serializedResponse) == false)
        #expect(note.userInfo[TaskNotificationKey.responseSerializer] is JSONResponseSerializer)
        #expect(note.userInfo[TaskNotificationKey.error] == nil)
        #expect(note.task.taskDescription == manager.session.taskDescriptionForSessionTasks)
    }
}
