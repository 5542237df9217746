import BenchKit
import Foundation
import NIOCore
import Synchronization

/// A file as an AsyncSequence of 1 MiB ByteBuffers read with read(2), so the upload streams
/// from disk like the other clients' read callbacks.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let path: String
    /// Bytes handed to the client so far.
    let sent = Counter()

    final class Counter: Sendable {
        private let storage = Atomic<Int64>(0)
        var value: Int64 { storage.load(ordering: .relaxed) }
        func add(_ count: Int) { storage.add(Int64(count), ordering: .relaxed) }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let descriptor: Int32
        let sent: Counter
        let allocator = ByteBufferAllocator()

        mutating func next() async throws -> ByteBuffer? {
            var buffer = allocator.buffer(capacity: 1 << 20)
            let count = try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 1 << 20) { raw in
                let result = read(descriptor, raw.baseAddress, raw.count)
                if result < 0 { throw BenchFailure("read failed: \(String(cString: strerror(errno)))") }
                return result
            }
            if count == 0 {
                close(descriptor)
                return nil
            }
            sent.add(count)
            return buffer
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { Report.fail("cannot open \(path)") }
        return AsyncIterator(descriptor: descriptor, sent: sent)
    }
}
