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
        let response = await self.response(for: request, serializer: PassthroughResponseSerializer())
        let data = try response.result.get()
        guard let httpResponse = response.response else {
            throw TransportError.make(.badServerResponse, underlying: GannetError(.protocolViolation, "No HTTP response"), url: request.url)
        }
        return (data, httpResponse)
    }

    /// Sends `request` and returns the value `serializer` produced.
    public func value<Serializer: ResponseSerializing>(for request: URLRequest, serializer: Serializer) async throws -> Serializer.Output {
        try await response(for: request, serializer: serializer).result.get()
    }

    /// Sends `request` and returns the whole ``DataResponse``; failures are in its `result`.
    public func response<Serializer: ResponseSerializing>(for request: URLRequest, serializer: Serializer) async -> DataResponse<Serializer.Output> {
        let box = TaskBox()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DataResponse<Serializer.Output>, Never>) in
                let body: BodySource? = request.httpBodyStream.map(BodySource.stream) ?? request.httpBody.map(BodySource.data)
                let task = makeTask(kind: .data, request: request, body: body, serializer: serializer,
                                    progress: ProgressHandlers(), direct: true) { response in
                    continuation.resume(returning: response)
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }

    /// Uploads the file at `fileURL` as the body of `request`, streamed from disk.
    public func upload(for request: URLRequest, fromFile fileURL: URL) async throws -> (Data, HTTPURLResponse) {
        let box = TaskBox()
        let response = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DataResponse<Data>, Never>) in
                let task = makeTask(kind: .upload, request: request, body: .file(fileURL), serializer: PassthroughResponseSerializer(),
                                    progress: ProgressHandlers(), direct: true) { response in
                    continuation.resume(returning: response)
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
        let data = try response.result.get()
        guard let httpResponse = response.response else {
            throw TransportError.make(.badServerResponse, underlying: GannetError(.protocolViolation, "No HTTP response"), url: request.url)
        }
        return (data, httpResponse)
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
