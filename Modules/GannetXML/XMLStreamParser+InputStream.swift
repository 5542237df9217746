extension XMLStreamParser {
    /// Parses a whole document read from `stream`, 64 KiB at a time, then calls ``finish()``.
    ///
    /// The stream is opened if it is not open yet, and closed afterwards if this method opened it.
    ///
    /// - Throws: ``XMLError`` with code ``XMLError/Code/streamReadFailed`` (the stream's error as
    ///   the underlying error) when reading fails, or any error ``feed(_:)-(DataProtocol)`` throws.
    public func parse(stream: InputStream) throws {
        let opened = stream.streamStatus == .notOpen
        if opened { stream.open() }
        defer { if opened { stream.close() } }
        let capacity = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { buffer.deallocate() }
        while true {
            let count = stream.read(buffer, maxLength: capacity)
            if count < 0 || stream.streamStatus == .error {
                let reason = stream.streamError.map { String(describing: $0) } ?? "unknown error"
                throw XMLError(.streamReadFailed, "Reading the input stream failed: \(reason)", underlyingError: stream.streamError)
            }
            if count == 0 { break }
            try feed(UnsafeRawBufferPointer(start: buffer, count: count))
        }
        try finish()
    }
}
