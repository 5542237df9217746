import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// An `InputStream` over a file descriptor, read with plain `read(2)` as the engine asks for
/// bytes, so a body of any size is sent in constant memory. `prefix` is sent first: the bytes
/// already read from stdin to tell a small body from a large one.
///
/// The engine's body reader is its only user; it opens, reads and closes the stream on its
/// own thread, one call at a time.
final class DescriptorInputStream: InputStream {
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    private var prefix: Data
    private var status: Stream.Status = .notOpen
    private var failure: (any Error)?

    /// `ownsDescriptor`: close it when the stream closes (an `@FILE`), or leave it open (stdin).
    init(descriptor: Int32, prefix: Data = Data(), ownsDescriptor: Bool) {
        self.descriptor = descriptor
        self.prefix = prefix
        self.ownsDescriptor = ownsDescriptor
        super.init(data: Data())
    }

    deinit {
        if ownsDescriptor, status != .closed { Glibc.close(descriptor) }
    }

    override func open() { status = .open }

    override func close() {
        if ownsDescriptor, status != .closed { Glibc.close(descriptor) }
        status = .closed
    }

    override var streamStatus: Stream.Status { status }
    override var streamError: (any Error)? { failure }
    override var hasBytesAvailable: Bool { status == .open }

    override func read(_ buffer: UnsafeMutablePointer<UInt8>, maxLength length: Int) -> Int {
        guard status == .open, length > 0 else { return status == .atEnd ? 0 : -1 }
        if !prefix.isEmpty {
            let count = min(length, prefix.count)
            prefix.copyBytes(to: buffer, count: count)
            prefix.removeFirst(count)
            return count
        }
        while true {
            let count = Glibc.read(descriptor, buffer, length)
            if count > 0 { return count }
            if count == 0 {
                status = .atEnd
                return 0
            }
            if errno == EINTR { continue }
            failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            status = .error
            return -1
        }
    }

    override func getBuffer(
        _ buffer: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>,
        length len: UnsafeMutablePointer<Int>
    ) -> Bool {
        false
    }
}
