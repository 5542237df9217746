import Foundation
import GannetHTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// docs/integrations.md's "swift-http-types" example, compiled here (the docs check builds the
/// root package only) and run against the echo server.
func httpTypesExample(baseURL: URL) async throws {
    // docs:begin
    let manager = SessionManager()

    // data(for:body:): a status of 400 or more is a response, not an error.
    var request = HTTPRequest(method: .post, url: baseURL.appendingPathComponent("echo"))
    request.headerFields[.contentType] = "application/json"
    let (data, response) = try await manager.data(for: request, body: Data(#"{"name":"gannet"}"#.utf8))
    print(response.status, response.headerFields[.contentType] ?? "", data.count)

    // upload(for:from:) and upload(for:fromFile:), as on URLSession.
    let (_, uploaded) = try await manager.upload(for: request, from: Data(repeating: 1, count: 1000))
    print(uploaded.status.code)

    // bytes(for:body:): the head at once, the body as it arrives.
    let streamed = HTTPRequest(method: .get, url: baseURL.appendingPathComponent("stream/100000"))
    let (head, chunks) = try await manager.bytes(for: streamed)
    var count = 0
    for try await chunk in chunks { count += chunk.count }
    print(head.status, count)

    // Conversions: to and from URLRequest, and from a DataResponse's head as received (reason
    // phrase and repeated fields kept).
    let urlRequest = try URLRequest(request)
    print(try HTTPRequest(urlRequest).method)
    let cookies = try URLRequest(HTTPRequest(method: .get, url: baseURL.appendingPathComponent("cookies")))
    let whole = await manager.response(for: cookies, serializer: .passthrough)
    if let fields = whole.httpResponse {
        print(fields.status.reasonPhrase, fields.headerFields[values: .setCookie])
    }
    // docs:end
}

@Suite("docs/integrations.md, swift-http-types")
struct DocsExampleTests {
    @Test func theExampleRunsAgainstTheEchoServer() async throws {
        try await httpTypesExample(baseURL: try EchoServer.shared().baseURL)
    }

    @Test func theDocsShowThisCode() throws {
        try #expect(DocsBlock.inPage(section: "## swift-http-types") == DocsBlock.inSource(#filePath))
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
        else { throw ServerError("no example block under \(section) in docs/integrations.md") }
        return Array(lines[(marker + 2)..<end])
    }

    static func inSource(_ path: String) throws -> [String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).components(separatedBy: "\n")
        guard let begin = lines.firstIndex(where: { $0.hasSuffix("// docs:begin") }),
            let end = lines.firstIndex(where: { $0.hasSuffix("// docs:end") })
        else { throw ServerError("no docs:begin/docs:end in \(path)") }
        return lines[(begin + 1)..<end].map { $0.hasPrefix("    ") ? String($0.dropFirst(4)) : $0 }
    }
}
