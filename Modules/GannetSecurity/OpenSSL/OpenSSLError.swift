internal import COpenSSL

/// A failure reported by OpenSSL, keeping the library's own codes and text.
///
/// OpenSSL queues errors per thread; Gannet drains the queue into this value at the point of
/// failure, so the text survives and no stale error is left for the next caller on the thread.
public struct OpenSSLError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One queued OpenSSL error.
    public struct Entry: Sendable, Hashable {
        /// The packed code from `ERR_get_error()`.
        public let code: UInt
        /// `ERR_error_string_n`'s text, such as `error:05800074:x509 certificate routines::key values mismatch`.
        public let message: String
        /// The reason part of ``code`` (`ERR_GET_REASON`).
        public var reason: Int { Int(ERR_GET_REASON(code)) }
        /// The library part of ``code`` (`ERR_GET_LIB`).
        public var library: Int { Int(ERR_GET_LIB(code)) }
    }

    /// What Gannet was doing when OpenSSL failed, such as `"d2i_X509"`.
    public let operation: String
    /// The queued errors, oldest first; empty when OpenSSL failed without queueing one.
    public let entries: [Entry]

    /// Creates an error; `OpenSSLError.drain(_:)` is the usual way.
    public init(operation: String, entries: [Entry]) {
        self.operation = operation
        self.entries = entries
    }

    /// A one-line description for logs.
    public var description: String {
        guard !entries.isEmpty else { return "\(operation) failed" }
        return "\(operation) failed: " + entries.map(\.message).joined(separator: "; ")
    }

    /// Empties this thread's OpenSSL error queue into a value.
    static func drain(_ operation: String) -> OpenSSLError {
        var entries: [Entry] = []
        // Bounded: a queue holds at most ERR_NUM_ERRORS (16) entries.
        while entries.count < 32 {
            let code = ERR_get_error()
            if code == 0 { break }
            entries.append(Entry(code: code, message: errorString(code)))
        }
        return OpenSSLError(operation: operation, entries: entries)
    }

    private static func errorString(_ code: UInt) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Forgets errors left on this thread's queue by earlier, unrelated calls, so that a later
    /// ``drain(_:)`` reports only the operation that follows.
    static func clearQueue() {
        ERR_clear_error()
    }
}
