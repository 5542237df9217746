extension HTTPSessionManager {
    /// Sends `method` to `urlString` and returns as soon as the response head arrived, with the
    /// body as chunks in the order they arrive, never accumulated (core's `bytes(for:)`: the
    /// engine stops reading from the socket while the consumer is more than 1 MiB behind).
    ///
    /// ```swift
    /// let (response, body) = try await manager.bytes("stream/100")
    /// for try await chunk in body { handle(chunk) }
    /// ```
    ///
    /// No response serializer runs: the status code is yours to check. Cancelling the Swift
    /// task that iterates, or dropping the stream, cancels the transfer.
    public func bytes(
        _ urlString: String,
        method: String = "GET",
        parameters: Parameters? = nil,
        headers: [String: String]? = nil
    ) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, any Error>) {
        try await session.bytes(
            for: request(method: method, urlString: urlString, parameters: parameters, headers: headers)
        )
    }

    /// Downloads `urlString` into `fileURL`, the body streamed to a temporary file and renamed
    /// into place when complete (core's `download(for:to:)`): a file at `fileURL` is replaced in
    /// one step, a directory there is never replaced (`GannetError(.downloadMoveFailed)`), and a
    /// failed or cancelled download leaves no file behind.
    ///
    /// As with AFNetworking, the response goes through ``responseSerializer`` first: a status or
    /// a content type it refuses throws its `ResponseSerializationError`, whose `data` holds the
    /// first 64 KiB of the body, and nothing is saved. The default JSON serializer accepts only
    /// JSON, so for files install one that accepts them:
    ///
    /// ```swift
    /// manager.responseSerializer = HTTPResponseSerializer()   // any content type, 2xx only
    /// let (file, response) = try await manager.download("files/report.pdf", to: URL(fileURLWithPath: "report.pdf"))
    /// ```
    public func download(
        _ urlString: String,
        method: String = "GET",
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        to fileURL: URL
    ) async throws -> (URL, HTTPURLResponse) {
        try await session.download(
            for: request(method: method, urlString: urlString, parameters: parameters, headers: headers),
            to: fileURL
        )
    }
}
