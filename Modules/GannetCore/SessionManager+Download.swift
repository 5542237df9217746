extension SessionManager {
    /// Creates a task that streams the response body to a temporary file, never holding it in
    /// memory, and on success moves it to its destination (AFNetworking's
    /// `downloadTaskWithRequest:progress:destination:completionHandler:`).
    ///
    /// When the transfer ends:
    /// 1. The response goes through the manager's ``responseSerializer`` (as it was when the task
    ///    was created) is asked `ResponseSerializing.validate(_:)` with the file and its first
    ///    64 KiB, which every `ResponseValidating` serializer answers: a status or content type it refuses fails the task with its error,
    ///    which keeps the first 64 KiB of the body, and the file is deleted. The core's default
    ///    `PassthroughResponseSerializer` accepts every response.
    /// 2. The destination is the URL the session's
    ///    ``setDownloadTaskDidFinishDownloading(_:)`` hook returns, else the one `destination`
    ///    returns; with neither, the file stays in the temporary folder and its URL is the result.
    /// 3. The file is renamed to the destination, replacing a file there in one step (a failed
    ///    move leaves that file as it was). A destination that is an existing directory is never
    ///    replaced: the task fails with `GannetError(.downloadMoveFailed)`. A move that fails
    ///    posts `gannetDownloadTaskDidFailToMoveFile` and fails the task; one that succeeds posts
    ///    `gannetDownloadTaskDidMoveFile`.
    ///
    /// On failure or cancellation the partial file is deleted. The body size is limited by
    /// ``SessionConfiguration/Limits/maximumDownloadBytes``.
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
            stage: DownloadSerializer(destination: destination, validator: responseSerializer),
            progress: ProgressHandlers(upload: nil, download: progress),
            sink: .file(DownloadFile()),
            completionHandler: completionHandler
        )
    }

    /// Continues a download cancelled with ``SessionTask/cancel(byProducingResumeData:)``
    /// (AFNetworking's `downloadTaskWithResumeData:progress:destination:completionHandler:`).
    ///
    /// The request asks for the rest of the body with `Range` and `If-Range` (the strong ETag
    /// the server gave, else its `Last-Modified`). A `206` starting at the kept offset
    /// continues the partial file; a `200` (the server ignored the range, or the body changed
    /// so `If-Range` failed) starts it again from zero; a `416` is retried once without the
    /// range, from zero. ``SessionManager/setDownloadTaskDidResume(_:)`` is told the offset,
    /// and progress counts from it. The task then finishes as any download task does.
    ///
    /// - Throws: ``GannetError`` with code ``GannetError/Code/invalidResumeData`` for resume
    ///   data that is malformed, of another version, not for an `http(s)` URL, or whose
    ///   partial file is gone or shorter than recorded. Nothing is sent then.
    public func downloadTask(
        withResumeData resumeData: Data,
        destination: (@Sendable (URL, HTTPURLResponse) -> URL)? = nil,
        progress: (@Sendable (Progress) -> Void)? = nil,
        completionHandler: @escaping @Sendable (DataResponse<URL>) -> Void
    ) throws(GannetError) -> SessionTask {
        let resume = try ResumeData.decode(resumeData)
        var request = URLRequest(url: resume.url)
        for (name, value) in resume.headers { request.setValue(value, forHTTPHeaderField: name) }
        request.setValue("bytes=\(resume.offset)-", forHTTPHeaderField: "Range")
        request.setValue(resume.validator, forHTTPHeaderField: "If-Range")
        return makeTask(
            kind: .download,
            request: request,
            body: nil,
            stage: DownloadSerializer(destination: destination, validator: responseSerializer),
            progress: ProgressHandlers(upload: nil, download: progress),
            sink: .file(DownloadFile(resume: (resume.file, resume.offset))),
            interceptor: RangeRestart(),
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
        await awaitResponse { delivery, deliver in
            makeTask(
                kind: .download,
                request: request,
                body: BodySource(of: request),
                stage: DownloadSerializer(destination: destination, validator: responseSerializer),
                progress: ProgressHandlers(upload: nil, download: progress),
                sink: .file(DownloadFile()),
                delivery: delivery,
                completionHandler: deliver
            )
        }
    }

    /// Downloads the body of `request` into `fileURL` (replacing a file there, never a directory),
    /// streamed to disk, as ``downloadTask(with:destination:progress:completionHandler:)`` does:
    /// the manager's ``responseSerializer`` judges the response first, and a refused response
    /// throws its error and leaves nothing at `fileURL`.
    public func download(for request: URLRequest, to fileURL: URL) async throws -> (URL, HTTPURLResponse) {
        let response = await awaitResponse { delivery, deliver in
            makeTask(
                kind: .download,
                request: request,
                body: BodySource(of: request),
                stage: DownloadSerializer(destination: { _, _ in fileURL }, validator: responseSerializer),
                progress: ProgressHandlers(),
                sink: .file(DownloadFile()),
                delivery: delivery,
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
        let streamed = try await streamedResponse(for: request)
        guard let response = streamed.response else {
            throw TransportError.make(
                .badServerResponse,
                underlying: GannetError(.protocolViolation, "No HTTP response"),
                url: request.url
            )
        }
        return (response, streamed.body)
    }
}

extension SessionManager {
    /// A data task, not yet resumed, whose body goes to a ``ByteStreamState`` (its window, 1 to
    /// 8 MiB, pauses receiving until the consumer reads): `bytes(for:)` and `EventSource` both
    /// read through it.
    func makeByteStreamTask(for request: URLRequest) -> (SessionTask, ByteStreamState) {
        let state = ByteStreamState()
        let task = makeTask(
            kind: .data,
            request: request,
            body: BodySource(of: request),
            serializer: PassthroughResponseSerializer(),
            progress: ProgressHandlers(),
            sink: .stream(state),
            delivery: .direct
        ) { _ in }
        state.task.withLock { $0 = task }
        return (task, state)
    }
}
