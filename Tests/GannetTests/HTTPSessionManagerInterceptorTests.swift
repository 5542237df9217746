import Foundation
import Gannet
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The manager-level and per-request interceptors of `HTTPSessionManager`, against httpbin.
@Suite("HTTPSessionManager interceptors")
struct HTTPSessionManagerInterceptorTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    struct Header: RequestAdapter {
        let name: String, value: String
        func adapt(_ request: URLRequest, for task: SessionTask) async throws -> URLRequest {
            var request = request
            request.setValue(value, forHTTPHeaderField: name)
            return request
        }
    }

    @Test func managerAndRequestInterceptorsBothAdapt() async throws {
        let manager = try makeManager(servers.httpbin)
        manager.interceptor = Interceptor(adapters: [Header(name: "X-Manager", value: "m")])
        #expect(manager.session.interceptor != nil, "stored on the session")
        let response = try await manager.response(
            method: "GET",
            "headers",
            serializer: JSONResponseSerializer(),
            interceptor: Interceptor(adapters: [Header(name: "X-Request", value: "r")])
        )
        let headers = try #require((response.value as? [String: any Sendable])?["headers"] as? [String: any Sendable])
        #expect(headers["X-Manager"] as? String == "m")
        #expect(headers["X-Request"] as? String == "r")
        // The verbs go through the manager's interceptor too.
        let plain = try await manager.get("headers")
        let plainHeaders = try #require((plain.value as? [String: any Sendable])?["headers"] as? [String: any Sendable])
        #expect(plainHeaders["X-Manager"] as? String == "m")
        #expect(plainHeaders["X-Request"] == nil)
    }

    @Test func theVerbsRetryThroughTheManagersPolicy() async throws {
        let manager = try makeManager(servers.fault)
        manager.interceptor = RetryPolicy(exponentialBackoffScale: 0.05)
        let key = UUID().uuidString
        let response = try await manager.get("flaky/\(key)", parameters: ["fail": "2"])
        let report = try #require(response.value as? [String: any Sendable])
        #expect(report["attempts"] as? Int == 3)
    }
}
