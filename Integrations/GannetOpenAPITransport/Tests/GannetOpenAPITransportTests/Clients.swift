import AsyncHTTPClient
import Foundation
import GannetCore
import GannetOpenAPITransport
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transports the same generated client is run over.
enum TransportKind: String, CaseIterable, CustomStringConvertible, Sendable {
    /// GannetTransport, response bodies streamed (its default).
    case gannet
    /// GannetTransport with `.buffered` response bodies.
    case gannetBuffered
    /// swift-openapi-async-http-client on `HTTPClient.shared`.
    case asyncHTTPClient
    /// swift-openapi-urlsession on `URLSession.shared`.
    case urlSession

    var description: String { rawValue }

    func client(_ server: TestServer, manager: SessionManager = SessionManager()) -> Client {
        let transport: any ClientTransport
        switch self {
        case .gannet: transport = GannetTransport(manager: manager)
        case .gannetBuffered:
            transport = GannetTransport(manager: manager, configuration: .init(responseBody: .buffered))
        case .asyncHTTPClient: transport = AsyncHTTPClientTransport()
        case .urlSession: transport = URLSessionTransport()
        }
        return Client(serverURL: server.serverURL, transport: transport)
    }
}

/// What every operation of openapi.yaml answered, for one transport.
struct Results: Equatable {
    var item: Components.Schemas.Item
    var echoedTag: String?
    var missing: Components.Schemas.Problem
    var list: [Components.Schemas.Item]
    var created: Components.Schemas.Item
    var refused: Components.Schemas.Problem
    var streamedUpload: Components.Schemas.Digest
    var smallUpload: Components.Schemas.Digest
    var download: BlobDigest
    var accept: String?

    static let streamedUploadSize = 3 << 20
    static let downloadSize: Int64 = 2_500_000

    /// Runs every operation once, in order.
    static func exercise(_ client: Client) async throws -> Results {
        let found = try await client.getItem(
            path: .init(id: 3),
            query: .init(verbose: true),
            headers: .init(xRequestTag: "tag-3")
        ).ok
        let missing = try await client.getItem(path: .init(id: 999)).notFound.body.json
        let list = try await client.listItems(query: .init(limit: 2, tag: ["red"])).ok.body.json
        let created = try await client.createItem(body: .json(.init(name: "widget", tags: ["new"]))).created.body.json
        let refused = try await client.createItem(body: .json(.init(name: ""))).unprocessableContent.body.json
        let streamed = try await client.digestBlob(body: .binary(patternBody(size: streamedUploadSize))).ok.body.json
        let small = try await client.digestBlob(body: .binary(HTTPBody("hello"))).ok.body.json
        let blob = try await client.downloadBlob(path: .init(size: downloadSize)).ok.body.binary
        var download = BlobDigest()
        for try await chunk in blob { download.add(chunk) }
        let accept = try await client.echoHeaders().ok.body.json.additionalProperties["accept"]
        return Results(
            item: try found.body.json,
            echoedTag: found.headers.xEchoTag,
            missing: missing,
            list: list,
            created: created,
            refused: refused,
            streamedUpload: streamed,
            smallUpload: small,
            download: download,
            accept: accept
        )
    }

    /// `size` bytes of ``BlobPattern`` in 100,000-byte chunks of unknown total length: the
    /// transport cannot collect it ahead and must stream it.
    static func patternBody(size: Int) -> HTTPBody {
        let chunks = stride(from: 0, to: size, by: 100_000).map {
            BlobPattern.bytes(at: Int64($0), count: min(100_000, size - $0))
        }
        return HTTPBody(chunks.async, length: .unknown, iterationBehavior: .single)
    }

    static func digest(of size: Int) -> BlobDigest {
        var digest = BlobDigest()
        digest.add(BlobPattern.bytes(at: 0, count: size))
        return digest
    }
}

extension Array where Element: Sendable {
    /// The elements as an asynchronous sequence.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
