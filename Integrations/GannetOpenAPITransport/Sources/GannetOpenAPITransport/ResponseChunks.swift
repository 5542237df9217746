import Foundation
import OpenAPIRuntime

/// Gannet's response byte stream as the chunks of an `HTTPBody`. Reading it to its end, or a
/// failure, ends the request body's bridge too, so no reading thread is left behind when a server
/// answers before it read the whole request body.
struct ResponseChunks: AsyncSequence, Sendable {
    typealias Element = HTTPBody.ByteChunk

    let chunks: AsyncThrowingStream<Data, any Error>
    let requestBody: HTTPBodyBridge?

    struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Data, any Error>.AsyncIterator
        let requestBody: HTTPBodyBridge?

        mutating func next() async throws -> HTTPBody.ByteChunk? {
            do {
                guard let chunk = try await base.next() else {
                    requestBody?.terminate(failure: CancellationError())
                    return nil
                }
                return ArraySlice(chunk)
            } catch {
                requestBody?.terminate(failure: error)
                throw error
            }
        }
    }

    func makeAsyncIterator() -> Iterator {
        Iterator(base: chunks.makeAsyncIterator(), requestBody: requestBody)
    }
}
