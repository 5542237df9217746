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

    /// Downloads `urlString` into `fileURL` (replacing it), the body streamed to a temporary
    /// file and moved into place when complete (core's `download(for:to:)`); a failed or
    /// cancelled download leaves no file behind.
    ///
    /// ```swift
    /// let (file, response) = try await manager.download("files/report.pdf", to: URL(fileURLWithPath: "report.pdf"))
    /// ```
    ///
    /// No response serializer runs: a 404 page is saved like any body, so check
    /// `response.statusCode`.
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
