import Foundation
import GannetCore
import GannetOpenAPITransport
import OpenAPIRuntime
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// docs/integrations.md's "OpenAPI transport" example, compiled here (it needs the generated
/// client, which the docs check cannot build) and run against the test server.
func openAPIExample(serverURL: URL) async throws {
    // docs:begin
    let manager = SessionManager()
    // Retries apply to .buffered responses (a streamed body is never retried).
    manager.interceptor = RetryPolicy()
    let client = Client(serverURL: serverURL, transport: GannetTransport(manager: manager))

    // JSON in and out, path and query parameters, a documented error status.
    let item = try await client.getItem(path: .init(id: 3), query: .init(verbose: true)).ok.body.json
    print(item.name, item.note ?? "")
    let missing = try await client.getItem(path: .init(id: 999)).notFound.body.json
    print(missing.code, missing.message)

    // A body streamed each way: the upload is read from the HTTPBody as it is sent, the
    // download reaches the loop as it arrives (neither is held whole).
    let (stream, continuation) = AsyncStream<HTTPBody.ByteChunk>.makeStream()
    for _ in 0..<16 { continuation.yield(HTTPBody.ByteChunk(repeating: 7, count: 64 << 10)) }
    continuation.finish()
    let digest = try await client.digestBlob(body: .binary(HTTPBody(stream, length: .unknown))).ok.body.json
    print(digest.length)  // 1048576
    var received = 0
    for try await chunk in try await client.downloadBlob(path: .init(size: 1 << 20)).ok.body.binary {
        received += chunk.count
    }
    print(received)  // 1048576
    // docs:end
}

@Suite("docs/integrations.md, OpenAPI transport")
struct DocsExampleTests {
    @Test func theExampleRunsAgainstTheTestServer() async throws {
        let server = try await TestServer.shared()
        try await openAPIExample(serverURL: server.serverURL)
    }

    @Test func theDocsShowThisCode() throws {
        try #expect(DocsBlock.inPage(section: "## OpenAPI transport") == DocsBlock.inSource(#filePath))
    }
}

/// The example block of a section of docs/integrations.md, and the code between `docs:begin`
/// and `docs:end` in a source file: the page must show the code that is compiled here.
enum DocsBlock {
    static func inPage(section: String, filePath: String = #filePath) throws -> [String] {
        let root = URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("../../../..")
        let page = try String(contentsOf: root.appendingPathComponent("docs/integrations.md"), encoding: .utf8)
        let lines = page.components(separatedBy: "\n")
        guard let heading = lines.firstIndex(of: section),
            let marker = lines[heading...].firstIndex(where: { $0.contains("DocsExampleTests") }),
            let end = lines[(marker + 2)...].firstIndex(of: "```")
        else { throw DocsError("no example block under \(section) in docs/integrations.md") }
        return Array(lines[(marker + 2)..<end])
    }

    static func inSource(_ path: String) throws -> [String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        guard let begin = lines.firstIndex(where: { $0.hasSuffix("// docs:begin") }),
            let end = lines.firstIndex(where: { $0.hasSuffix("// docs:end") })
        else { throw DocsError("no docs:begin/docs:end in \(path)") }
        return lines[(begin + 1)..<end].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
    }
}

struct DocsError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
