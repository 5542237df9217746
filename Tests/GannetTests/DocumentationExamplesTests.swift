import Foundation
import Gannet
import GannetTestSupport
import Testing

/// The code shown in README.md and docs/getting-started.md, compiled and run against the local
/// servers so that the documentation cannot drift from the API.
@Suite("documentation examples")
struct DocumentationExamplesTests {
    struct User: Decodable, Sendable {
        let id: Int
        let name: String
    }

    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// nginx serves `users.json` from its files folder: a stand-in for an API's `/v1/users`.
    func usersBaseURL() throws -> URL {
        let folder = URL(fileURLWithPath: servers.filesDirectory).appendingPathComponent("v1")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"[{"id":1,"name":"Northern gannet"},{"id":2,"name":"Cape gannet"}]"#.utf8)
            .write(to: folder.appendingPathComponent("users"))
        return servers.nginx.appendingPathComponent("files/v1")
    }

    @Test func readmeFirstRequest() async throws {
        let manager = HTTPSessionManager(baseURL: try usersBaseURL())
        // nginx types a file without an extension as text/plain: accept it for this stand-in.
        var serializer = JSONResponseSerializer()
        serializer.acceptableContentTypes = nil
        manager.responseSerializer = serializer

        let count = await withCheckedContinuation { (continuation: CheckedContinuation<Int, Never>) in
            // README: AFNetworking style
            manager.GET(
                "users",
                parameters: ["page": 2],
                success: { task, json in
                    let users = json as? [[String: Any]] ?? []
                    print(users.count, "users")
                    continuation.resume(returning: users.count)
                },
                failure: { task, error in
                    print("failed:", error)
                    continuation.resume(returning: -1)
                }
            )
        }
        #expect(count == 2)

        // README: async/await, a typed value
        var decodable = DecodableResponseSerializer<[User]>()
        decodable.acceptableContentTypes = nil
        let users = try await manager.response(method: "GET", "users", parameters: ["page": 2], serializer: decodable)
            .result.get()
        #expect(users.map(\.name) == ["Northern gannet", "Cape gannet"])

        // README: the whole response (httpbin answers POST)
        let api = HTTPSessionManager(baseURL: servers.httpbin)
        let response = try await api.post("post", parameters: ["name": "Gannet"])
        print(response.statusCode ?? 0, response.value as Any)
        #expect(response.statusCode == 200)
    }

    @Test func typedGetAsInTheReadme() async throws {
        // The README's `get(_:parameters:as:)` with a JSON-typed endpoint: httpbin's /json.
        struct Slideshow: Decodable, Sendable {
            struct Show: Decodable, Sendable { let title: String }
            let slideshow: Show
        }
        let manager = HTTPSessionManager(baseURL: servers.httpbin)
        let value = try await manager.get("json", parameters: ["page": 2], as: Slideshow.self)
        #expect(value.slideshow.title == "Sample Slide Show")
    }

    @Test func multipartExampleFromTheDocComment() async throws {
        let manager = HTTPSessionManager(baseURL: servers.httpbin)
        let photoURL = try temporaryFile(Data("jpeg bytes".utf8), name: "gannet.jpg")
        defer { try? FileManager.default.removeItem(at: photoURL.deletingLastPathComponent()) }
        let fraction = ProgressRecorder()
        let ok = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            manager.POST("post", parameters: ["album": "Birds"]) { formData in
                try formData.appendPart(fileURL: photoURL, name: "photo")
            } progress: { progress in
                fraction.record(progress)
            } success: { task, response in
                continuation.resume(returning: (response as? [String: Any])?["files"] != nil)
            } failure: { task, error in
                continuation.resume(returning: false)
            }
        }
        #expect(ok)
        #expect(fraction.completed > 0)
    }
}
