extension SessionManager {
    /// Creates a data task that writes the response body to `outputStream` instead of memory,
    /// as AFURLConnectionOperation's `outputStream` did: a body of any size passes through in
    /// bounded memory.
    ///
    /// The stream is opened if it is not open yet, written on a queue of its own (a stream that
    /// blocks never holds up the manager's other transfers; while more than 1 MiB waits to be
    /// written, the engine stops reading from the socket), and closed when the body ends. The
    /// completion handler runs after the last byte was written. A write that fails ends the
    /// task with `URLError.cannotWriteToFile`, a ``GannetError`` with code
    /// ``GannetError/Code/outputStreamFailed`` underneath and the stream's `streamError` under
    /// that; so does a stream that takes no byte for the request's timeout. What was already
    /// written stays in the stream.
    ///
    /// The stream is closed before the completion handler runs, on success too. `serializer`
    /// and the response see no body (`data` is `nil`), except for a memory stream
    /// (`OutputStream.toMemory()`), whose bytes are the data, as AFURLConnectionOperation's
    /// `responseData` read them: use a serializer that validates the status, or
    /// `PassthroughResponseSerializer`. A response
    /// cannot be written twice into one stream, so an interceptor's retry after body bytes were
    /// written fails with ``GannetError/Code/outputStreamFailed``. The body of every part of a
    /// `multipart/x-mixed-replace` response is appended, and the response disposition may not
    /// turn the task into a download or a stream.
    ///
    /// ```swift
    /// let file = OutputStream(toFileAtPath: path, append: false)!
    /// let task = manager.dataTask(with: request, writingTo: file, serializer: .passthrough) { response in
    ///     print(response.error == nil ? "saved" : "failed: \(response.error!)")
    /// }
    /// task.resume()
    /// ```
    public func dataTask<Serializer: ResponseSerializing>(
        with request: URLRequest,
        writingTo outputStream: OutputStream,
        serializer: Serializer,
        interceptor: (any RequestInterceptor)? = nil,
        downloadProgress: (@Sendable (Progress) -> Void)? = nil,
        completionHandler: @escaping @Sendable (DataResponse<Serializer.Output>) -> Void
    ) -> SessionTask {
        let writer = OutputStreamWriter(stream: outputStream)
        let task = makeTask(
            kind: .data,
            request: request,
            body: BodySource(of: request),
            serializer: serializer,
            progress: ProgressHandlers(upload: nil, download: downloadProgress),
            sink: .outputStream(writer),
            interceptor: interceptor,
            completionHandler: completionHandler
        )
        writer.task.withLock { $0.value = task }
        return task
    }
}
