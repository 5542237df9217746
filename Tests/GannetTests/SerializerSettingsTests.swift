import Foundation
import Gannet
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 13, part A: the installed serializers change in place, as AFNetworking's did, and the
/// typed async calls take acceptance settings or a serializer; against httpbin and the fault
/// server.
@Suite("serializers changed in place")
struct SerializerSettingsTests {
    let servers: TestServers
    let manager: HTTPSessionManager

    init() throws {
        servers = try TestServers.shared()
        manager = try makeManager(servers.httpbin)
    }

    struct NamedEcho: Decodable, Sendable { let name: String }

    private func code(_ error: (any Error)?) -> ResponseSerializationError.Code? {
        (error as? ResponseSerializationError)?.code
    }

    @Test func setValueOnTheInstalledRequestSerializerIsSent() async throws {
        manager.requestSerializer.setValue("abc", forHTTPHeaderField: "X-Token")
        let sent = await deliver { success, failure in manager.GET("headers", success: success, failure: failure) }
        #expect(field(try echo(sent.value), "headers", "X-Token") == "abc")

        // Whatever serializer is installed: a JSON one, changed the same way, for a JSON body.
        manager.requestSerializer = .json
        manager.requestSerializer.setValue("def", forHTTPHeaderField: "X-Token")
        let posted = await deliver { success, failure in
            manager.POST("post", parameters: ["a": 1], success: success, failure: failure)
        }
        let body = try echo(posted.value)
        #expect(field(body, "headers", "X-Token") == "def")
        #expect((body["json"] as? [String: Any])?["a"] as? Int == 1)

        // Removing it stops sending it; a per-request header still wins over a default.
        manager.requestSerializer.setValue(nil, forHTTPHeaderField: "X-Token")
        manager.requestSerializer.setAuthorizationHeader(username: "user", password: "pass")
        let cleared = try await manager.get("headers", headers: ["X-Other": "1"])
        #expect(field(try echo(cleared.value), "headers", "X-Token") == nil)
        #expect(field(try echo(cleared.value), "headers", "Authorization") == "Basic dXNlcjpwYXNz")
    }

    @Test func insertingTextHTMLIntoTheDefaultJSONSerializer() async throws {
        // Before: the default JSON serializer refuses httpbin's /html on its content type.
        let before = await deliver { success, failure in manager.GET("html", success: success, failure: failure) }
        #expect(code(before.error) == .unacceptableContentType)

        manager.responseSerializer.acceptableContentTypes.insert("text/html")
        #expect(manager.responseSerializer.acceptableContentTypes?.contains("text/html") == true)
        #expect(manager.session.responseSerializer is JSONResponseSerializer, "changed in place, not replaced")

        // After: the content type passes; HTML is still not JSON, which is now the error.
        let after = await deliver { success, failure in manager.GET("html", success: success, failure: failure) }
        #expect(code(after.error) == .jsonDecodingFailed)
        // And JSON that a server labels text/html now parses.
        let labelled = await deliver { success, failure in
            manager.GET(
                "response-headers",
                parameters: ["Content-Type": "text/html", "name": "gannet"],
                success: success,
                failure: failure
            )
        }
        #expect(labelled.succeeded)
        #expect((labelled.value as? [String: Any])?["name"] as? String == "gannet")
    }

    @Test func insertingIntoAnotherInstalledSerializer() async throws {
        manager.responseSerializer = .string
        manager.responseSerializer.acceptableContentTypes = [.plainText]
        await #expect(throws: ResponseSerializationError.self) { try await manager.get("html") }

        manager.responseSerializer.acceptableContentTypes.insert("text/html")
        let page = try await manager.get("html")
        #expect((page.value as? String)?.contains("Herman Melville") == true)

        // A serializer accepting any type (nil) still does after an insert.
        manager.responseSerializer = HTTPResponseSerializer()
        manager.responseSerializer.acceptableContentTypes.insert("text/html")
        #expect(manager.responseSerializer.acceptableContentTypes == nil)
    }

    @Test func theRegistryPassesAcceptedStatusCodesToItsEntries() async throws {
        manager.responseSerializer = ResponseSerializerRegistry.standard
        let missing = servers.url(.status(404)).absoluteString
        await #expect(throws: ResponseSerializationError.self) { try await manager.get(missing) }
        // httpbin's 404 is empty text/html: the text entry refuses it on its status.
        let refusedByEntry = await #expect(throws: ResponseSerializationError.self) {
            try await manager.get("status/404")
        }
        #expect(refusedByEntry?.code == .unacceptableStatusCode)

        manager.responseSerializer.acceptableStatusCodes.insert(404)
        let response = try await manager.get(missing)
        #expect(response.statusCode == 404)
        #expect(response.value as? Data == Data("status 404\n".utf8))

        // The text entry accepts the registry's codes too: the 404 passes validation, and only
        // its missing body is then an error (a 404 is not a status without a body).
        let acceptedByEntry = await #expect(throws: ResponseSerializationError.self) {
            try await manager.get("status/404")
        }
        #expect(acceptedByEntry?.code == .inputDataNilOrZeroLength)
        let json = try await manager.get("json")
        #expect((json.value as? [String: Any])?["slideshow"] != nil)
    }

    @Test func registryAcceptsExtraContentTypesWithoutAFallback() throws {
        var registry = ResponseSerializerRegistry(entries: [.init(JSONResponseSerializer(), for: [.json])])
        let url = try #require(URL(string: "http://127.0.0.1/x"))
        let html = try #require(
            HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: ["Content-Type": "text/html"])
        )
        #expect(throws: ResponseSerializationError.self) {
            try registry.serialize(request: nil, response: html, data: Data("<p>".utf8), error: nil)
        }
        registry.acceptableContentTypes.insert(.html)
        let value = try registry.serialize(request: nil, response: html, data: Data("<p>".utf8), error: nil)
        #expect(value as? Data == Data("<p>".utf8))
    }

    @Test func typedCallsAcceptAnotherContentTypeOnlyWhenTold() async throws {
        let parameters: Parameters = ["Content-Type": "text/html", "name": "gannet"]
        let refused = await #expect(throws: ResponseSerializationError.self) {
            try await manager.get("response-headers", parameters: parameters, as: NamedEcho.self)
        }
        #expect(refused?.code == .unacceptableContentType)

        let echo = try await manager.get(
            "response-headers",
            parameters: parameters,
            as: NamedEcho.self,
            acceptingContentTypes: [.html]
        )
        #expect(echo.name == "gannet")

        let viaSerializer = try await manager.get(
            "response-headers",
            parameters: parameters,
            serializer: DecodableResponseSerializer(of: NamedEcho.self).accepting(contentTypes: [.html])
        )
        #expect(viaSerializer.value?.name == "gannet")
        #expect(viaSerializer.statusCode == 200)
    }

    @Test func typedCallsAcceptA404OnlyWhenTold() async throws {
        let refused = await #expect(throws: ResponseSerializationError.self) {
            try await manager.get("status/404", serializer: .http)
        }
        #expect(refused?.code == .unacceptableStatusCode)

        let accepted = try await manager.get(
            "status/404",
            serializer: HTTPResponseSerializer().accepting(statusCodes: [404])
        )
        #expect(accepted.statusCode == 404)

        // The decoding shorthand: a 404 is no longer refused on its status (its empty body is
        // then the error, since a 404 is not a status without a body).
        let decoded = await #expect(throws: ResponseSerializationError.self) {
            try await manager.get("status/404", as: NamedEcho.self, acceptingStatusCodes: [404])
        }
        #expect(decoded?.code == .inputDataNilOrZeroLength)
    }
}
