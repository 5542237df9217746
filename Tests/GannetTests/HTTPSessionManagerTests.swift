import Foundation
import Gannet
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// AFHTTPSessionManagerTests' REST, header, progress and serialization-error cases, against the
/// local httpbin.
@Suite("HTTPSessionManager verbs against httpbin")
struct HTTPSessionManagerTests {
    let servers: TestServers
    let manager: HTTPSessionManager

    init() throws {
        servers = try TestServers.shared()
        manager = try makeManager(servers.httpbin)
    }

    /// AFNetworking's tests set a default header on the serializer and a per-request header
    /// of the same name: the request's wins.
    private func managerWithDefaultHeader() -> HTTPSessionManager {
        var serializer = HTTPRequestSerializer()
        serializer.setValue("default value", forHTTPHeaderField: "field")
        serializer.setValue("bar value", forHTTPHeaderField: "X-Bar")
        manager.requestSerializer = serializer
        return manager
    }

    @Test func getPutsParametersInTheQueryString() async throws {
        let delivery = await deliver { success, failure in
            manager.GET("get", parameters: ["key": "value", "tags": ["a", "b"]], success: success, failure: failure)
        }
        #expect(delivery.succeeded)
        #expect(delivery.onCompletionQueue)
        let task = try #require(delivery.callbackTask)
        #expect(task === delivery.returnedTask)
        #expect(task.state == .completed)
        #expect(delivery.value is [String: any Sendable], "the default response serializer parses JSON")
        let echo = try echo(delivery.value)
        #expect(field(echo, "args", "key") == "value")
        #expect((echo["args"] as? [String: Any])?["tags[]"] as? [String] == ["a", "b"])
        #expect(task.originalRequest?.url?.absoluteString.hasPrefix(servers.httpbin.absoluteString + "get?") == true)
    }

    @Test func headSucceedsWithTheTaskOnly() async throws {
        let calls = Counter()
        let task: SessionTask? = await withCheckedContinuation { continuation in
            manager.HEAD(
                "get",
                success: { task in
                    calls.increment()
                    #expect(CompletionQueue.isCurrent)
                    continuation.resume(returning: task)
                },
                failure: { _, error in
                    Issue.record("HEAD failed: \(error)")
                    continuation.resume(returning: nil)
                }
            )
        }
        let response = try #require(task?.response as? HTTPURLResponse)
        #expect(response.statusCode == 200)
        #expect(task?.originalRequest?.httpMethod == "HEAD")
        #expect(task?.countOfBytesReceived == 0)
        #expect(calls.count == 1)
    }

    @Test func postSendsAFormAndPerRequestHeadersWin() async throws {
        let manager = managerWithDefaultHeader()
        let delivery = await deliver { success, failure in
            manager.POST(
                "post",
                parameters: ["key": "value"],
                headers: ["field": "value"],
                success: success,
                failure: failure
            )
        }
        #expect(delivery.succeeded)
        let task = try #require(delivery.callbackTask)
        #expect(task.originalRequest?.value(forHTTPHeaderField: "field") == "value")
        #expect(task.originalRequest?.value(forHTTPHeaderField: "X-Bar") == "bar value")
        let echo = try echo(delivery.value)
        #expect(field(echo, "form", "key") == "value")
        #expect(field(echo, "headers", "Field") == "value")
        #expect(field(echo, "headers", "X-Bar") == "bar value")
        #expect(field(echo, "headers", "Content-Type") == "application/x-www-form-urlencoded; charset=utf-8")
    }

    @Test func putSendsAForm() async throws {
        let manager = managerWithDefaultHeader()
        let delivery = await deliver { success, failure in
            manager.PUT(
                "put",
                parameters: ["key": "value"],
                headers: ["field": "value"],
                success: success,
                failure: failure
            )
        }
        #expect(delivery.succeeded)
        #expect(delivery.callbackTask?.originalRequest?.httpMethod == "PUT")
        #expect(delivery.callbackTask?.originalRequest?.value(forHTTPHeaderField: "field") == "value")
        #expect(field(try echo(delivery.value), "form", "key") == "value")
    }

    @Test func patchSendsAForm() async throws {
        let manager = managerWithDefaultHeader()
        let delivery = await deliver { success, failure in
            manager.PATCH(
                "patch",
                parameters: ["key": "value"],
                headers: ["field": "value"],
                success: success,
                failure: failure
            )
        }
        #expect(delivery.succeeded)
        #expect(delivery.callbackTask?.originalRequest?.httpMethod == "PATCH")
        // AFNetworking's testPATCH: the per-request header overrides the serializer's default,
        // in the request and at the server (one value, not the two joined).
        #expect(delivery.callbackTask?.originalRequest?.value(forHTTPHeaderField: "field") == "value")
        let echo = try echo(delivery.value)
        #expect(field(echo, "form", "key") == "value")
        #expect(field(echo, "headers", "Field") == "value")
        #expect(field(echo, "headers", "X-Bar") == "bar value")
    }

    @Test func deletePutsParametersInTheQueryString() async throws {
        let manager = managerWithDefaultHeader()
        let delivery = await deliver { success, failure in
            manager.DELETE(
                "delete",
                parameters: ["key": "value"],
                headers: ["field": "value"],
                success: success,
                failure: failure
            )
        }
        #expect(delivery.succeeded)
        #expect(delivery.callbackTask?.originalRequest?.httpMethod == "DELETE")
        #expect(delivery.callbackTask?.originalRequest?.httpBody == nil)
        // AFNetworking's testDELETE: the per-request header overrides the serializer's default.
        #expect(delivery.callbackTask?.originalRequest?.value(forHTTPHeaderField: "field") == "value")
        let echo = try echo(delivery.value)
        #expect(field(echo, "args", "key") == "value")
        #expect(field(echo, "headers", "Field") == "value")
        #expect(field(echo, "headers", "X-Bar") == "bar value")
    }

    @Test func jsonRequestSerializer() async throws {
        manager.requestSerializer = JSONRequestSerializer()
        let delivery = await deliver { success, failure in
            manager.POST("post", parameters: ["name": "Gannet", "dives": 3], success: success, failure: failure)
        }
        let json = try #require(try echo(delivery.value)["json"] as? [String: Any])
        #expect(json["name"] as? String == "Gannet")
        #expect(json["dives"] as? Int == 3)
    }

    @Test func multipartPostSendsFieldsFilesAndData() async throws {
        let manager = managerWithDefaultHeader()
        let file = try temporaryFile(Data("file contents\n".utf8), name: "notes.txt")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let delivery = await deliver { success, failure in
            manager.POST(
                "post",
                parameters: ["key": "value"],
                headers: ["field": "value"],
                constructingBodyWith: { formData in
                    try formData.appendPart(fileURL: file, name: "document")
                    try formData.appendPart(
                        data: Data("Data".utf8),
                        name: "DataName",
                        fileName: "DataFileName",
                        mimeType: "data"
                    )
                },
                success: success,
                failure: failure
            )
        }
        #expect(delivery.succeeded)
        let task = try #require(delivery.callbackTask)
        #expect(task.originalRequest?.value(forHTTPHeaderField: "field") == "value")
        #expect(
            task.originalRequest?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("multipart/form-data; boundary=")
                == true
        )
        let echo = try echo(delivery.value)
        #expect(field(echo, "form", "key") == "value")
        #expect(field(echo, "files", "document") == "file contents\n")
        #expect(field(echo, "files", "DataName") == "Data")
    }

    @Test func multipartBlockErrorReachesFailureWithoutATask() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/gannet-\(UUID().uuidString)")
        let delivery = await deliver { success, failure in
            manager.POST(
                "post",
                constructingBodyWith: { formData in
                    try formData.appendPart(fileURL: missing, name: "file")
                },
                success: success,
                failure: failure
            )
        }
        #expect(delivery.returnedTask == nil)
        #expect(delivery.callbackTask == nil)
        #expect(delivery.onCompletionQueue)
        #expect((delivery.error as? RequestSerializationError)?.code == .fileNotReadable)
    }

    @Test func serializationErrorReachesFailureOnTheCompletionQueueWithoutATask() async throws {
        struct Custom: Error {}
        var serializer = HTTPRequestSerializer()
        serializer.configuration.queryStringSerialization = .init { _, _ in throw Custom() }
        manager.requestSerializer = serializer
        let delivery = await deliver { success, failure in
            manager.GET("test", parameters: ["key": "value"], success: success, failure: failure)
        }
        #expect(delivery.returnedTask == nil)
        #expect(delivery.callbackTask == nil)
        #expect(delivery.onCompletionQueue)
        let error = try #require(delivery.error as? RequestSerializationError)
        #expect(error.code == .queryStringSerializationFailed)
        #expect(error.underlyingError is Custom)
        #expect(manager.tasks.isEmpty)
    }

    @Test(arguments: [["X-Bad": "a\r\nInjected: 1"], ["Bad Name": "x"], ["X-Nul": "a\u{0}b"]])
    func headerThatCannotBeSentFailsWithoutATask(_ headers: [String: String]) async throws {
        let delivery = await deliver { success, failure in
            manager.GET("get", headers: headers, success: success, failure: failure)
        }
        #expect(delivery.returnedTask == nil)
        #expect(gannetCode(delivery.error) == .invalidHeader)
        #expect(delivery.onCompletionQueue)
    }

    @Test func transportErrorReachesFailureWithTheTask() async throws {
        let manager = try makeManager(URL(string: "http://127.0.0.1:1/"))
        let delivery = await deliver { success, failure in
            manager.GET("get", success: success, failure: failure)
        }
        #expect(delivery.callbackTask != nil)
        #expect(delivery.callbackTask === delivery.returnedTask)
        #expect((delivery.error as? URLError)?.code == .cannotConnectToHost)
        #expect(delivery.onCompletionQueue)
    }

    @Test func failureIsCalledFor404WithTheTask() async throws {
        let delivery = await deliver { success, failure in
            manager.GET("status/404", success: success, failure: failure)
        }
        #expect(delivery.callbackTask === delivery.returnedTask)
        #expect(delivery.callbackTask?.state == .completed)
        let error = try #require(delivery.error as? ResponseSerializationError)
        #expect(error.code == .unacceptableStatusCode)
        #expect(error.statusCode == 404)
        #expect(delivery.onCompletionQueue)
    }

    @Test func successIsCalledFor200() async throws {
        let delivery = await deliver { success, failure in
            manager.GET("status/200", success: success, failure: failure)
        }
        #expect(delivery.succeeded)
        #expect(delivery.value == nil, "an empty 200 body is nil for the JSON serializer")
    }

    @Test func responseObjectIsEmptyFor204() async throws {
        let delivery = await deliver { success, failure in
            manager.GET("status/204", success: success, failure: failure)
        }
        #expect(delivery.succeeded)
        #expect(delivery.value == nil)
        #expect((delivery.callbackTask?.response as? HTTPURLResponse)?.statusCode == 204)
    }

    @Test func htmlIsAnUnacceptableContentTypeForTheDefaultSerializer() async throws {
        let delivery = await deliver { success, failure in
            manager.GET("html", success: success, failure: failure)
        }
        let error = delivery.error as? ResponseSerializationError
        #expect(error?.code == .unacceptableContentType)
        // Validated from the parsed head; the error still carries the response it judged.
        #expect(error?.response?.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("text/html") == true)
        manager.responseSerializer = StringResponseSerializer()
        let text = await deliver { success, failure in
            manager.GET("html", success: success, failure: failure)
        }
        #expect((text.value as? String)?.contains("Herman Melville") == true)
    }

    @Test func hiddenBasicAuthenticationWithTheSerializersAuthorizationHeader() async throws {
        var serializer = HTTPRequestSerializer()
        serializer.setAuthorizationHeader(username: "user", password: "password")
        manager.requestSerializer = serializer
        let delivery = await deliver { success, failure in
            manager.GET("hidden-basic-auth/user/password", success: success, failure: failure)
        }
        #expect(delivery.succeeded)
        #expect(try echo(delivery.value)["authenticated"] as? Bool == true)
    }

    @Test func dataTaskWithHTTPMethodIsCreatedSuspended() async throws {
        let manager = managerWithDefaultHeader()
        let calls = Counter()
        let delivery = await withCheckedContinuation { (continuation: CheckedContinuation<Delivery, Never>) in
            let task = manager.dataTask(
                withHTTPMethod: "GET",
                URLString: "get",
                parameters: nil,
                headers: ["X-Foo": "request value"],
                uploadProgress: nil,
                downloadProgress: nil,
                success: { task, value in
                    calls.increment()
                    continuation.resume(
                        returning: Delivery(
                            callbackTask: task,
                            value: value,
                            error: nil,
                            onCompletionQueue: CompletionQueue.isCurrent
                        )
                    )
                },
                failure: { task, error in
                    calls.increment()
                    continuation.resume(
                        returning: Delivery(
                            callbackTask: task,
                            value: nil,
                            error: error,
                            onCompletionQueue: CompletionQueue.isCurrent
                        )
                    )
                }
            )
            #expect(task?.state == .suspended)
            task?.resume()
        }
        #expect(delivery.succeeded)
        #expect(calls.count == 1)
        let request = try #require(delivery.callbackTask?.originalRequest)
        #expect(request.value(forHTTPHeaderField: "X-Foo") == "request value")
        #expect(request.value(forHTTPHeaderField: "X-Bar") == "bar value")
    }

    @Test func downloadProgressIsReportedForGET() async throws {
        manager.responseSerializer = HTTPResponseSerializer()
        let recorder = ProgressRecorder()
        let delivery = await deliver { success, failure in
            manager.GET("bytes/65536", progress: { recorder.record($0) }, success: success, failure: failure)
        }
        #expect(delivery.succeeded)
        #expect((delivery.value as? Data)?.count == 65536)
        #expect(recorder.calls > 0)
        #expect(recorder.completed == 65536)
        #expect(recorder.total == 65536)
    }

    @Test func uploadProgressIsReportedForPOST() async throws {
        let recorder = ProgressRecorder()
        let payload = String(repeating: "AFNetworking", count: 2000)
        let delivery = await deliver { success, failure in
            manager.POST(
                "post",
                parameters: ["payload": payload],
                progress: { recorder.record($0) },
                success: success,
                failure: failure
            )
        }
        #expect(delivery.succeeded)
        let expected = Int64(("payload=" + payload).utf8.count)
        #expect(recorder.calls > 0)
        #expect(recorder.completed == expected)
        #expect(recorder.total == expected)
    }

    @Test func uploadProgressIsReportedForStreamingMultipartPOST() async throws {
        let recorder = ProgressRecorder()
        let payload = Data(String(repeating: "AFNetworking", count: 2000).utf8)
        let delivery = await deliver { success, failure in
            manager.POST(
                "post",
                constructingBodyWith: { formData in
                    try formData.appendPart(
                        data: payload,
                        name: "AFNetworking",
                        fileName: "AFNetworking",
                        mimeType: "text/html"
                    )
                },
                progress: { recorder.record($0) },
                success: success,
                failure: failure
            )
        }
        #expect(delivery.succeeded)
        let length = try #require(
            Int64(delivery.callbackTask?.originalRequest?.value(forHTTPHeaderField: "Content-Length") ?? "")
        )
        #expect(length > Int64(payload.count))
        #expect(recorder.completed == length)
    }
}
