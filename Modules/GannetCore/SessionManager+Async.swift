extension SessionManager {
    /// Sends `request` and returns the body and the response. Cancelling the calling Swift
    /// task cancels the transfer.
    ///
    /// ```swift
    /// let (data, response) = try await manager.data(for: URLRequest(url: url))
    /// ```
    /// - Throws: a transport `URLError`, or `GannetError` for a request that cannot be sent.
    public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await response(for: request, serializer: PassthroughResponseSerializer()).get()
    }

    /// Sends `request` and returns the value `serializer` produced.
    @_specialize(exported:true,where Serializer == PassthroughResponseSerializer)
    @_specialize(exported:true,where Serializer == AnyResponseSerializer)
    public func value<Serializer: ResponseSerializing>(
        for request: URLRequest,
        serializer: Serializer
    ) async throws -> Serializer.Output {
        try await response(for: request, serializer: serializer).result.get()
    }

    /// Sends `request` and returns the whole ``DataResponse``: the request sent last, the
    /// response with its head as received (``DataResponse/headerFields``,
    /// ``DataResponse/httpVersion``), the body, the serialized value and the metrics. Failures
    /// are in its `result`; ``DataResponse/get()`` throws them. Cancelling the calling Swift
    /// task cancels the transfer.
    ///
    /// ```swift
    /// let response = await manager.response(for: request, serializer: .passthrough,
    ///                                       downloadProgress: { print($0.fractionCompleted) })
    /// let (body, head) = try response.get()
    /// ```
    /// - Parameters:
    ///   - request: the request to send; its body is `httpBody` or `httpBodyStream`.
    ///   - serializer: turns the response into the value of ``DataResponse/result``.
    ///   - interceptor: adapts and retries this request after the manager's ``interceptor``.
    ///   - uploadProgress: called with the task's upload `Progress` as body bytes are sent.
    ///   - downloadProgress: called with the task's download `Progress` as bytes arrive.
    @_specialize(exported:true,where Serializer == PassthroughResponseSerializer)
    @_specialize(exported:true,where Serializer == AnyResponseSerializer)
    public func response<Serializer: ResponseSerializing>(
        for request: URLRequest,
        serializer: Serializer,
        interceptor: (any RequestInterceptor)? = nil,
        uploadProgress: (@Sendable (Progress) -> Void)? = nil,
        downloadProgress: (@Sendable (Progress) -> Void)? = nil
    ) async -> DataResponse<Serializer.Output> {
        await awaitResponse { delivery, deliver in
            makeTask(
                kind: .data,
                request: request,
                body: BodySource(of: request),
                serializer: serializer,
                progress: ProgressHandlers(upload: uploadProgress, download: downloadProgress),
                delivery: delivery,
                interceptor: interceptor,
                completionHandler: deliver
            )
        }
    }

    /// Uploads the file at `fileURL` as the body of `request`, streamed from disk.
    public func upload(for request: URLRequest, fromFile fileURL: URL) async throws -> (Data, HTTPURLResponse) {
        try await response(for: request, fromFile: fileURL, serializer: PassthroughResponseSerializer()).get()
    }

    /// Uploads the file at `fileURL` as the body of `request`, streamed from disk, and returns
    /// the whole ``DataResponse``, as ``response(for:serializer:interceptor:uploadProgress:downloadProgress:)``
    /// does for a body in memory.
    ///
    /// ```swift
    /// let response = await manager.response(for: request, fromFile: file, serializer: .passthrough,
    ///                                       uploadProgress: { print($0.fractionCompleted) })
    /// ```
    @_specialize(exported:true,where Serializer == PassthroughResponseSerializer)
    public func response<Serializer: ResponseSerializing>(
        for request: URLRequest,
        fromFile fileURL: URL,
        serializer: Serializer,
        interceptor: (any RequestInterceptor)? = nil,
        uploadProgress: (@Sendable (Progress) -> Void)? = nil,
        downloadProgress: (@Sendable (Progress) -> Void)? = nil
    ) async -> DataResponse<Serializer.Output> {
        await awaitResponse { delivery, deliver in
            makeTask(
                kind: .upload,
                request: request,
                body: .file(fileURL),
                serializer: serializer,
                progress: ProgressHandlers(upload: uploadProgress, download: downloadProgress),
                delivery: delivery,
                interceptor: interceptor,
                completionHandler: deliver
            )
        }
    }

    /// Starts the task `make` creates (with the ``Delivery`` it is given) and waits for its
    /// single response; cancelling the calling Swift task cancels the transfer, even if it races
    /// the task's creation. Posts the task's `gannetTaskDidComplete` before it returns.
    func awaitResponse<Output: Sendable>(
        _ make: (Delivery, @escaping @Sendable (DataResponse<Output>) -> Void) -> SessionTask
    ) async -> DataResponse<Output> {
        let box = TaskBox()
        let notification = PendingNotification()
        let response = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = make(.awaited(notification)) { continuation.resume(returning: $0) }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
        notification.post()
        return response
    }
}
