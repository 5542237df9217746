import Foundation
import GannetResponseSerialization
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// NDJSON / JSON Lines: lines decoded as the chunks arrive, however they are cut.
@Suite struct JSONLinesSequenceTests {
    private struct Item: Decodable, Equatable {
        var n: Int
        var text: String?
    }

    /// `text` as chunks of `piece` bytes.
    private func chunks(_ text: String, piece: Int) -> AsyncThrowingStream<Data, any Error> {
        let bytes = Array(text.utf8)
        return AsyncThrowingStream { continuation in
            var offset = 0
            while offset < bytes.count {
                continuation.yield(Data(bytes[offset..<min(offset + piece, bytes.count)]))
                offset += piece
            }
            continuation.finish()
        }
    }

    private func items(_ text: String, piece: Int, limit: Int = 1 << 20) async throws -> [Item] {
        var result: [Item] = []
        for try await item in chunks(text, piece: piece).jsonLines(of: Item.self, maximumLineBytes: limit) {
            result.append(item)
        }
        return result
    }

    @Test(arguments: [1, 2, 5, 100])
    func linesSplitAcrossChunksCRLFBlankLinesAndANoFinalLF(piece: Int) async throws {
        let text = "{\"n\":1}\n{\"n\":2,\r\"text\":\"a\"}\r\n\n  \n{\"n\":3}"
        #expect(try await items(text, piece: piece) == [Item(n: 1), Item(n: 2, text: "a"), Item(n: 3)])
    }

    @Test func aBadLineNamesItsNumber() async {
        await #expect {
            _ = try await items("{\"n\":1}\n\n{\"n\":\"two\"}\n", piece: 3)
        } throws: { error in
            let error = error as? StreamingError
            return error?.code == .invalidLine && error?.lineNumber == 3 && error?.underlyingError is DecodingError
        }
    }

    @Test func aLineOverTheLimitThrowsBeforeMoreIsHeld() async {
        await #expect {
            _ = try await items(
                "{\"n\":1}\n{\"text\":\"" + String(repeating: "x", count: 5000),
                piece: 100,
                limit: 1000
            )
        } throws: { ($0 as? StreamingError)?.code == .lineTooLong }
    }

    @Test func anNDJSONResponseFromARealServer() async throws {
        let servers = try TestServers.shared()
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let (response, body) = try await manager.bytes(for: URLRequest(url: servers.url(.ndjson(count: 40))))
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/x-ndjson")
        var seen: [Item] = []
        for try await item in body.jsonLines(of: Item.self) { seen.append(item) }
        #expect(seen == (0..<40).map { Item(n: $0, text: "line \($0) é") })
    }
}
