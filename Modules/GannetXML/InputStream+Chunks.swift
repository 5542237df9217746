extension InputStream {
    /// Reads the stream to its end, 64 KiB at a time, handing each piece to `body`. Opens the
    /// stream if it is not open yet, and then closes it afterwards.
    func forEachChunk(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        let opened = streamStatus == .notOpen
        if opened { open() }
        defer { if opened { close() } }
        let capacity = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        while true {
            let count = read(buffer, maxLength: capacity)
            if count < 0 || streamStatus == .error {
                let reason = streamError.map { String(describing: $0) } ?? "unknown error"
                throw XMLError(
                    .streamReadFailed,
                    "Reading the input stream failed: \(reason)",
                    underlyingError: streamError
                )
            }
            if count == 0 { return }
            try body(UnsafeRawBufferPointer(start: buffer, count: count))
        }
    }
}
