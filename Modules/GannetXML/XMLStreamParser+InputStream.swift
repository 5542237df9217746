extension XMLStreamParser {
    /// Parses a whole document read from `stream`, 64 KiB at a time, then calls ``finish()``.
    ///
    /// The stream is opened if it is not open yet, and closed afterwards if this method opened it.
    ///
    /// - Throws: ``XMLError`` with code ``XMLError/Code/streamReadFailed`` (the stream's error as
    ///   the underlying error) when reading fails, or any error ``feed(_:)-(DataProtocol)`` throws.
    public func parse(stream: InputStream) throws {
        try stream.forEachChunk { try feed($0) }
        try finish()
    }
}
