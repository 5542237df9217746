import Foundation
import GannetTestSupport
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gannet never sends `Expect: 100-continue` (HopOptions.setBodyAndHeaders says why), and
/// removes libcurl's only from hops that send a body: what httpbin saw.
@Suite struct ExpectHeaderTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// The header names httpbin echoed for `request`, lowercased.
    private func sentHeaderNames(_ request: URLRequest) async throws -> Set<String> {
        let manager = testManager(servers)
        defer { manager.invalidateAndCancel() }
        let response = await perform(manager, request)
        #expect(response.error == nil, "\(String(describing: response.error))")
        let headers = try #require(try json(response.data)["headers"] as? [String: Any])
        return Set(headers.keys.map { $0.lowercased() })
    }

    /// Above 1 MiB libcurl 7.88 asks for `100 Continue` unless told not to.
    @Test func aLargeBodyIsSentWithoutExpect() async throws {
        var request = URLRequest(url: servers.httpbin.adding("/anything"))
        request.httpMethod = "POST"
        request.httpBody = Data(repeating: 0x61, count: 2 << 20)
        let names = try await sentHeaderNames(request)
        #expect(names.contains("content-length"))
        #expect(!names.contains("expect"), "\(names.sorted())")
    }

    @Test func aRequestWithoutABodyHasNoExpectEither() async throws {
        let names = try await sentHeaderNames(URLRequest(url: servers.httpbin.adding("/anything")))
        #expect(!names.contains("expect"), "\(names.sorted())")
    }
}
