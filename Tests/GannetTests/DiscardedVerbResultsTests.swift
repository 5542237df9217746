import Foundation
import Gannet
import GannetTestSupport
import Testing

/// AFNetworking users call `POST:`, `PUT:`, `PATCH:` and `DELETE:` for their effect and discard
/// what they return; the async verbs are `@discardableResult` for them.
@Suite("Discarded verb results")
struct DiscardedVerbResultsTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// Each result is discarded without `_ =`: this file compiles under `-warnings-as-errors`
    /// only because the methods are `@discardableResult`; each call still throws on failure.
    @Test func postPutPatchAndDeleteResultsMayBeDiscarded() async throws {
        let manager = try makeManager(servers.httpbin)
        defer { manager.session.invalidateAndCancel() }
        try await manager.post("post", parameters: ["key": "value"])
        try await manager.put("put", parameters: ["key": "value"])
        try await manager.patch("patch", parameters: ["key": "value"])
        try await manager.delete("delete", parameters: ["key": "value"])
        try await manager.post("post", serializer: StringResponseSerializer())
        try await manager.put("put", serializer: StringResponseSerializer())
        try await manager.patch("patch", serializer: StringResponseSerializer())
        try await manager.delete("delete", serializer: StringResponseSerializer())
        try await manager.post("post") { form in try form.appendPart(formData: Data("v".utf8), name: "k") }
        await #expect(throws: ResponseSerializationError.self) { try await manager.post("status/500") }
    }
}
