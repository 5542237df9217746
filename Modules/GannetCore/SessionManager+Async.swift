internal import Synchronization

extension SessionManager {
    /// Sends `request` and returns the body and the response. Cancelling the calling Swift
    /// task cancels the transfer.
    ///
    /// ```swift
    /// let (data, response) = try await manager.data(for: URLRequest(url: url))
    /// ```
    /// - Throws: a transport `URLError`, or `GannetError` for a request that cannot be sent.
    public func data(for request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try Self.valueAndResponse(of: await response(for: request, serializer: PassthroughResponseSerializer()), request: request)
    }

    /// Sends `request` and returns the value `serializer` produced.
    public func value<Serializer: ResponseSerializing>(for request: URLRequest, serializer: Serializer) async throws -> Serializer.Output {
        try await response(for: request, serializer: serializer).result.get()
    }

    /// Sends `request` and returns the whole ``DataResponse``; failures are in its `result`.
    /// `interceptor` adapts and retries this request after the manager's ``interceptor``.
    public func response<Serializer: ResponseSerializing>(
        for request: URLRequest, serializer: Serializer, interceptor: (any RequestInterceptor)? = nil
    ) async -> DataResponse<Serializer.Output> {
        await awaitResponse { deliver in
            makeTask(kind: .data, request: request, body: BodySource(of: request), serializer: serializer,
                     progress: ProgressHandlers(), direct: true, interceptor: interceptor, completionHandler: deliver)
        }
    }

    /// Uploads the file at `fileURL` as the body of `request`, streamed from disk.
    public func upload(for request: URLRequest, fromFile fileURL: URL) async throws -> (Data, HTTPURLResponse) {
        let response = await awaitResponse { deliver in
            makeTask(kind: .upload, request: request, body: .file(fileURL), serializer: PassthroughResponseSerializer(),
                     progress: ProgressHandlers(), direct: true, completionHandler: deliver)
        }
        return try Self.valueAndResponse(of: response, request: request)
    }

    /// Starts the task `make` creates and waits for its single response; cancelling the
    /// calling Swift task cancels the transfer, even if it races the task's creation.
    func awaitResponse<Output: Sendable>(
        _ make: (@escaping @Sendable (DataResponse<Output>) -> Void) -> SessionTask
    ) async -> DataResponse<Output> {
        let box = TaskBox()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = make { continuation.resume(returning: $0) }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// The value and the `HTTPURLResponse` of a finished task, or its error.
    static func valueAndResponse<Value>(of response: DataResponse<Value>, request: URLRequest) throws -> (Value, HTTPURLResponse) {
        let value = try response.result.get()
        guard let httpResponse = response.response else {
            throw TransportError.make(.badServerResponse, underlying: GannetError(.protocolViolation, "No HTTP response"), url: request.url)
        }
        return (value, httpResponse)
    }
}

/// Holds the task of an async call so a cancellation that races its creation still lands.
final class TaskBox: Sendable {
    private let state = Mutex<(task: SessionTask?, cancelled: Bool)>((nil, false))

    func set(_ task: SessionTask) {
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> SessionTask? in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
    }
}
