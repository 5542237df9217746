import GannetTestSupport
import GannetXML
import Testing

/// Through the real engine, against httpbin on loopback.
@Suite("XML end to end")
struct XMLEndToEndTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    struct SlideTitles: XMLEventHandler, Sendable {
        var titles: [String] = []
        private var inTitle = false
        mutating func startElement(
            name: String,
            prefix: String?,
            namespaceURI: String?,
            attributes: [XMLAttribute],
            namespaces: [XMLNamespaceDeclaration]
        ) {
            inTitle = name == "title"
        }
        mutating func characters(_ text: String) { if inTitle { titles.append(text) } }
        mutating func endElement(name: String, prefix: String?, namespaceURI: String?) { inTitle = false }
    }

    @Test func httpbinXMLAsADocument() async throws {
        let request = URLRequest(url: servers.httpbin.appendingPathComponent("xml"))
        let document = try await SessionManager().value(for: request, serializer: .xmlDocument)
        let root = try #require(document.root)
        #expect(root.name == "slideshow")
        #expect(root.attribute("title") == "Sample Slide Show")
        #expect(document.element(at: "slideshow/slide/title")?.text == "Wake up to WonderWidgets!")
        #expect(root.elements(named: "slide").count == 2)
        #expect(root.descendants(named: "item").count == 3)
    }

    @Test func httpbinXMLThroughAnEventHandler() async throws {
        let request = URLRequest(url: servers.httpbin.appendingPathComponent("xml"))
        let titles = try await SessionManager().value(for: request, serializer: .xmlParser(SlideTitles.init)).titles
        #expect(titles == ["Wake up to WonderWidgets!", "Overview"])
    }

    @Test func completionHandlerStyleDeliversTheDocument() async throws {
        let manager = SessionManager()
        let request = URLRequest(url: servers.httpbin.appendingPathComponent("xml"))
        let response = await withCheckedContinuation { continuation in
            manager.dataTask(with: request, serializer: XMLDocumentResponseSerializer()) { response in
                continuation.resume(returning: response)
            }.resume()
        }
        #expect(response.response?.statusCode == 200)
        #expect(response.value?.root?.name == "slideshow")
        #expect(response.data?.isEmpty == false)
    }

    @Test func aJSONEndpointIsAnUnacceptableContentType() async throws {
        let request = URLRequest(url: servers.httpbin.appendingPathComponent("json"))
        let response = await SessionManager().response(for: request, serializer: .xmlDocument)
        let error = try #require(response.error as? ResponseSerializationError)
        #expect(error.code == .unacceptableContentType)
        #expect(error.data == response.data)
    }

    @Test func anErrorStatusIsRejected() async throws {
        let request = URLRequest(url: servers.httpbin.appendingPathComponent("status/418"))
        let response = await SessionManager().response(for: request, serializer: .xmlDocument)
        #expect((response.error as? ResponseSerializationError)?.code == .unacceptableStatusCode)
    }

    @Test func aHeadRequestGivesTheEmptyDocument() async throws {
        var request = URLRequest(url: servers.httpbin.appendingPathComponent("xml"))
        request.httpMethod = "HEAD"
        let document = try await SessionManager().value(for: request, serializer: .xmlDocument)
        #expect(document.root == nil)
    }

    @Test func manyConcurrentRequestsParseIndependently() async throws {
        let manager = SessionManager()
        let request = URLRequest(url: servers.httpbin.appendingPathComponent("xml"))
        let titles = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<24 {
                group.addTask {
                    try await manager.value(for: request, serializer: .xmlParser(SlideTitles.init)).titles
                }
            }
            var all: [[String]] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(titles.count == 24)
        #expect(titles.allSatisfy { $0 == ["Wake up to WonderWidgets!", "Overview"] })
    }
}
