extension SessionManager {
    /// Creates a task that streams the response body to a temporary file, never holding it in
    /// memory, and on success moves it to the URL `destination` returns (AFNetworking's
    /// `downloadTaskWithRequest:progress:destination:completionHandler:`). Without a
    /// destination the file stays in the temporary folder and its URL is the result. On failure
    /// or cancellation the partial file is deleted.
    ///
    /// The body size is limited by ``SessionConfiguration/Limits/maximumDownloadBytes``.
    public func downloadTask(
        with request: URLRequest,
        destination: (@Sendable (URL, HTTPURLResponse) -> URL)? = nil,
        progress: (@Sendable (Progress) -> Void)? = nil,
        completionHandler: @escaping @Sendable (DataResponse<URL>) -> Void
    ) -> SessionTask {
        makeTask(
            kind: .download,
            request: request,
            body: BodySource(of: request),
            serializer: DownloadSerializer(destination: destination),
            progress: ProgressHandlers(upload: nil, download: progress),
            sink: .file,
            completionHandler: completionHandler
        )
    }

    /// Downloads the body of `request` as ``downloadTask(with:destination:progress:completionHandler:)``
    /// does and returns the whole ``DataResponse``: the file's URL as its value, the response
    /// with its head as received, the metrics. Cancelling the calling Swift task cancels the
    /// transfer and deletes the partial file.
    public func downloadResponse(
        for request: URLRequest,
        destination: (@Sendable (URL, HTTPURLResponse) -> URL)? = nil,
        progress: (@Sendable (Progress) -> Void)? = nil
    ) async -> DataResponse<URL> {
        await awaitResponse { deliver in
            makeTask(
                kind: .download,
                request: request,
                body: BodySource(of: request),
                serializer: DownloadSerializer(destination: destination),
                progress: ProgressHandlers(upload: nil, download: progress),
                sink: .file,
                direct: true,
                completionHandler: deliver
            )
        }
    }

    /// Downloads the body of `request` into `fileURL` (replacing it), streamed to disk.
    public func download(for request: URLRequest, to fileURL: URL) async throws -> (URL, HTTPURLResponse) {
        let response = await awaitResponse { deliver in
            makeTask(
                kind: .download,
                request: request,
                body: BodySource(of: request),
                serializer: DownloadSerializer(destination: { _, _ in fileURL }),
                progress: ProgressHandlers(),
                sink: .file,
                direct: true,
                completionHandler: deliver
            )
        }
        return try response.get()
    }

    /// Sends `request` and returns as soon as the response head arrived, with the body as an
    /// asynchronous sequence of chunks. The body is never accumulated: when the consumer falls
    /// more than 1 MiB behind, the engine stops reading from the socket until it catches up.
    /// Cancelling the consuming Swift task, or dropping the stream, cancels the transfer. As
    /// with every `AsyncThrowingStream(unfolding:)`, a cancellation that lands between two
    /// chunks ends the iteration without an error (one that lands while a chunk is awaited
    /// throws `URLError.cancelled`): check `Task.isCancelled` after the loop when a truncated
    /// body must be told from a complete one.
    ///
    /// ```swift
    /// let (response, body) = try await manager.bytes(for: request)
    /// for try await chunk in body { handle(chunk) }
    /// ```
    public func bytes(for request: URLRequest) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, any Error>) {
        let state = ByteStreamState()
        let task = makeTask(
            kind: .data,
            request: request,
            body: BodySource(of: request),
            serializer: PassthroughResponseSerializer(),
            progress: ProgressHandlers(),
            sink: .stream(state),
            direct: true
        ) { _ in }
        state.task.withLock { $0 = task }
        task.resume()
        let lazy = try await withTaskCancellationHandler {
            try await state.response()
        } onCancel: {
            task.cancel()
        }
        guard let response = lazy.value else {
            throw TransportError.make(
                .badServerResponse,
                underlying: GannetError(.protocolViolation, "No HTTP response"),
                url: request.url
            )
        }
        // Pull-based: the stream asks for the next chunk only when the consumer does, which is
        // what lets the engine apply backpressure.
        let consumer = ByteStreamConsumer(state: state)
        let stream = AsyncThrowingStream<Data, any Error> { try await consumer.next() }
        return (response, stream)
    }
}

/// A serializer that also receives the file a download task wrote.
protocol FileResponseSerializing: ResponseSerializing {
    func serialize(
        fileURL: URL?,
        request: URLRequest?,
        response: HTTPURLResponse?,
        error: (any Error)?
    ) throws -> Output
}

/// Moves a finished download to its destination.
struct DownloadSerializer: FileResponseSerializing {
    let destination: (@Sendable (URL, HTTPURLResponse) -> URL)?

    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> URL {
        throw error ?? GannetError(.bodyStreamFailed, "A download task finished without a file")
    }

    func serialize(fileURL: URL?, request: URLRequest?, response: HTTPURLResponse?, error: (any Error)?) throws -> URL {
        if let error {
            if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
            throw error
        }
        guard let fileURL else { throw GannetError(.bodyStreamFailed, "A download task finished without a file") }
        guard let destination, let response else { return fileURL }
        let target = destination(fileURL, response)
        if target == fileURL { return fileURL }
        do {
            if FileManager.default.fileExists(atPath: target.path) {
                try FileManager.default.removeItem(at: target)
            }
            try FileManager.default.moveItem(at: fileURL, to: target)
        } catch {
            try? FileManager.default.removeItem(at: fileURL)
            throw GannetError(
                .bodyStreamFailed,
                "Cannot move the download to \(target.path): \(error)",
                failingURL: request?.url,
                underlyingError: error
            )
        }
        return target
    }
}
