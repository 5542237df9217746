import GannetResponseSerialization
import GannetTestSupport
import Testing

/// Serializers on real responses: data tasks through Gannet's engine to httpbin and the fault
/// server on loopback.
@Suite("End to end through httpbin")
struct EndToEndTests {
    struct Slideshow: Decodable, Sendable {
        struct Show: Decodable, Sendable {
            let author: String
            let title: String
            let slides: [Slide]
        }
        struct Slide: Decodable, Sendable { let title: String }
        let slideshow: Show
    }

    let servers: TestServers
    let manager = SessionManager()

    init() throws {
        servers = try TestServers.shared()
    }

    func request(_ path: String, method: String = "GET") -> URLRequest {
        var request = URLRequest(url: URL(string: path, relativeTo: servers.httpbin)!.absoluteURL)
        request.httpMethod = method
        return request
    }

    /// A completion-handler data task with `serializer`, awaited.
    func response<S: ResponseSerializing>(_ request: URLRequest, _ serializer: S) async -> DataResponse<S.Output> {
        await withCheckedContinuation { continuation in
            manager.dataTask(with: request, serializer: serializer) { continuation.resume(returning: $0) }.resume()
        }
    }

    @Test("/json through the JSON serializer gives AFNetworking-shaped objects")
    func json() async throws {
        // Given httpbin's sample JSON / When a data task uses .json
        let response = await response(request("json"), .json)

        // Then
        let object = try #require(try response.result.get() as? [String: Any])
        let slideshow = try #require(object["slideshow"] as? [String: Any])
        #expect(slideshow["author"] as? String == "Yours Truly")
        #expect((slideshow["slides"] as? [Any])?.count == 2)
    }

    @Test("/json through the Decodable serializer, async")
    func decodable() async throws {
        let slideshow = try await manager.value(for: request("json"), serializer: .decodable(of: Slideshow.self))
        #expect(slideshow.slideshow.title == "Sample Slide Show")
        #expect(slideshow.slideshow.slides.map(\.title) == ["Wake up to WonderWidgets!", "Overview"])
    }

    @Test("/html to the JSON serializer: unacceptable content type, body kept (SECURITY-CASES 29)")
    func htmlToJSON() async throws {
        // Given an HTML page / When the JSON serializer reads it
        let response = await response(request("html"), .json)

        // Then a typed error with the page in it
        let error = try #require(response.error as? ResponseSerializationError)
        #expect(error.code == .unacceptableContentType)
        #expect(error.message == "Request failed: unacceptable content-type: text/html")
        #expect(error.data == response.data)
        #expect(String(decoding: error.data ?? Data(), as: UTF8.self).contains("Herman Melville - Moby-Dick"))
        #expect(error.failingURL == request("html").url)
    }

    @Test("/status/418: unacceptable status with httpbin's teapot kept")
    func teapot() async throws {
        let response = await response(request("status/418"), .data)
        let error = try #require(response.error as? ResponseSerializationError)
        #expect(error.code == .unacceptableStatusCode)
        #expect(error.statusCode == 418)
        #expect(error.message == "Request failed: client error (418)")
        #expect(String(decoding: error.data ?? Data(), as: UTF8.self).contains("teapot"))
    }

    @Test("/status/204: Empty for Decodable, nil for JSON, empty Data and String (SECURITY-CASES 30)")
    func noContent() async throws {
        #expect(
            try await manager.value(for: request("status/204"), serializer: .decodable(of: Empty.self)) == Empty.value
        )
        #expect(try await manager.value(for: request("status/204"), serializer: .json) == nil)
        #expect(try await manager.value(for: request("status/204"), serializer: .data) == Data())
        #expect(try await manager.value(for: request("status/204"), serializer: .string) == "")
        // A type with content cannot come from nothing
        let error = await response(request("status/204"), .decodable(of: Slideshow.self)).error
        #expect((error as? ResponseSerializationError)?.code == .inputDataNilOrZeroLength)
    }

    @Test("HEAD: Empty, although the status is 200")
    func head() async throws {
        let value = try await manager.value(for: request("get", method: "HEAD"), serializer: .decodable(of: Empty.self))
        #expect(value == Empty.value)
    }

    @Test("/encoding/utf8: text decoded with the declared charset")
    func utf8() async throws {
        // Given httpbin's UTF-8 demo, served as text/html; charset=utf-8
        let response = await response(request("encoding/utf8"), .string)

        // Then the text is exactly the UTF-8 decoding of the body
        let text = try response.result.get()
        #expect(text.contains("Markus Kuhn [ˈmaʳkʊs kuːn]"))
        #expect(text.contains("∮ E⋅da = Q"))
        #expect(text == String(decoding: try #require(response.data), as: UTF8.self))
    }

    @Test(
        "/response-headers sets Content-Type; the registry routes by it",
        arguments: [
            ("text/csv", "text"),
            ("application/problem+json", "json"),
            ("application/vnd.api+json; charset=utf-8", "json"),
            ("application/msgpack", "msgpack"),
            ("image/x-unknown", "data"),
        ]
    )
    func registryRouting(_ contentType: String, _ expected: String) async throws {
        // Given the standard registry plus a MessagePack serializer
        var registry = ResponseSerializerRegistry.standard
        registry.register(MessagePackSerializer(), for: ["application/msgpack"])
        var components = URLComponents(
            url: servers.httpbin.appendingPathComponent("response-headers"),
            resolvingAgainstBaseURL: false
        )!
        components.queryItems = [URLQueryItem(name: "Content-Type", value: contentType)]
        let request = URLRequest(url: try #require(components.url))

        // When the response arrives (its body is a JSON echo of the headers, whatever the type)
        let response = await response(request, registry)

        // Then the entry for that Content-Type handled it
        switch expected {
        case "text":
            #expect(try response.result.get() as? String == String(decoding: response.data ?? Data(), as: UTF8.self))
        case "json":
            let object = try #require(try response.result.get() as? [String: Any])
            #expect(object["Content-Type"] != nil)
        case "msgpack":
            // JSON bytes are not MessagePack: the error proves the MessagePack entry was chosen.
            let error = try #require(response.error as? ResponseSerializationError)
            #expect(error.code == .decodingFailed)
            #expect(error.message.hasPrefix("MessagePack: "))
        default:
            #expect(try response.result.get() as? Data == response.data)
        }
    }

    @Test("AFNetworking style: the manager's responseSerializer is the registry")
    func managerSerializer() async throws {
        // Given a manager whose default serializer is the standard registry
        manager.responseSerializer = ResponseSerializerRegistry.standard

        // When a task without a serializer completes
        let (object, error) = await withCheckedContinuation {
            (continuation: CheckedContinuation<((any Sendable)?, (any Error)?), Never>) in
            manager.dataTask(
                with: request("json"),
                completionHandler: { _, object, error in
                    continuation.resume(returning: (object, error))
                }
            ).resume()
        }

        // Then the object is the JSON dictionary
        #expect(error == nil)
        #expect((object as? [String: Any])?["slideshow"] != nil)
    }

    @Test("A transport error reaches the caller instead of a serialization error")
    func transportErrorFirst() async throws {
        // Given a body cut short by the server (Content-Length 1000, 500 bytes)
        let response = await response(URLRequest(url: servers.url(.truncated)), .json)

        // Then the transport error, not a JSON or content-type error
        #expect(response.error is URLError)
        #expect(!(response.error is ResponseSerializationError))
    }
}
