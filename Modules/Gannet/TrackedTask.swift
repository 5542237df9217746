internal import Synchronization

/// A running request whose progress you follow as asynchronous sequences, then await the
/// response of. Created by ``HTTPSessionManager/transfer(_:_:parameters:headers:)`` and
/// ``HTTPSessionManager/multipartTransfer(_:parameters:headers:constructingBodyWith:)``.
///
/// ```swift
/// let transfer = manager.multipartTransfer("post") { formData in
///     try formData.appendPart(fileURL: videoURL, name: "video")
/// }
/// for try await progress in transfer.uploadProgress {
///     print("\(Int(progress.fractionCompleted * 100)) %")
/// }
/// let response = try await transfer.response
/// ```
///
/// Each progress sequence keeps only its newest element when nobody is reading (no unbounded
/// buffering), ends after a last element that reports the final counts when the task succeeds,
/// and throws the task's error when it fails. Cancelling the Swift task that awaits
/// ``response``, or calling ``cancel()``, cancels the transfer.
///
/// Named apart from the engine's `Transfer` (one libcurl transfer, internal to GannetCore): a
/// tracked task is the caller's handle on a whole task, every attempt and hop included.
public final class TrackedTask<Value: Sendable>: Sendable {
    /// The task, or `nil` when the request could not be built (then ``response`` throws why).
    public let task: SessionTask?
    /// Request body progress.
    public let uploadProgress: AsyncThrowingStream<TransferProgress, any Error>
    /// Response body progress.
    public let downloadProgress: AsyncThrowingStream<TransferProgress, any Error>

    private let uploadContinuation: AsyncThrowingStream<TransferProgress, any Error>.Continuation
    private let downloadContinuation: AsyncThrowingStream<TransferProgress, any Error>.Continuation
    private let outcome = Mutex<Outcome>(.pending([]))

    private enum Outcome {
        case pending([CheckedContinuation<Result<DataResponse<Value>, any Error>, Never>])
        case finished(Result<DataResponse<Value>, any Error>)
    }

    /// Starts `request` on `session`, or reports `buildError`.
    init<Serializer: ResponseSerializing>(
        session: SessionManager,
        request: Result<URLRequest, any Error>,
        serializer: Serializer
    ) where Serializer.Output == Value {
        (uploadProgress, uploadContinuation) = AsyncThrowingStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        (downloadProgress, downloadContinuation) = AsyncThrowingStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        switch request {
        case .failure(let error):
            task = nil
            finish(.failure(error), task: nil)
        case .success(let request):
            let upload = uploadContinuation
            let download = downloadContinuation
            let box = Mutex<TrackedTask<Value>?>(nil)
            let task = session.dataTask(
                with: request,
                serializer: serializer,
                uploadProgress: { upload.yield(TransferProgress($0)) },
                downloadProgress: { download.yield(TransferProgress($0)) },
                completionHandler: { response in
                    let transfer = box.withLock { transfer -> TrackedTask<Value>? in
                        defer { transfer = nil }
                        return transfer
                    }
                    // `box` holds the transfer from before `resume()`, its `task` already set.
                    transfer?.finish(Result { try response.succeeded() }, task: transfer?.task)
                }
            )
            self.task = task
            box.withLock { $0 = self }
            task.resume()
        }
    }

    /// The response, once the transfer has finished. Awaiting it from several places is fine;
    /// cancelling any one of the awaiting Swift tasks cancels the transfer.
    ///
    /// - Throws: the request-building error, the transport `URLError` or the serializer's error.
    public var response: DataResponse<Value> {
        get async throws {
            let result = await withTaskCancellationHandler {
                await withCheckedContinuation {
                    (continuation: CheckedContinuation<Result<DataResponse<Value>, any Error>, Never>) in
                    let ready = outcome.withLock { outcome -> Result<DataResponse<Value>, any Error>? in
                        switch outcome {
                        case .finished(let result):
                            return result
                        case .pending(var waiting):
                            waiting.append(continuation)
                            outcome = .pending(waiting)
                            return nil
                        }
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                cancel()
            }
            return try result.get()
        }
    }

    /// Cancels the transfer; ``response`` then throws `URLError.cancelled`.
    public func cancel() {
        task?.cancel()
    }

    private func finish(_ result: Result<DataResponse<Value>, any Error>, task: SessionTask?) {
        switch result {
        case .success:
            if let task {
                let expectedToSend = task.countOfBytesExpectedToSend
                if expectedToSend != 0 {
                    uploadContinuation.yield(TransferProgress(completed: task.countOfBytesSent, total: expectedToSend))
                }
                let received = task.countOfBytesReceived
                let expected = task.countOfBytesExpectedToReceive
                downloadContinuation.yield(
                    TransferProgress(completed: received, total: expected < 0 ? received : expected)
                )
            }
            uploadContinuation.finish()
            downloadContinuation.finish()
        case .failure(let error):
            uploadContinuation.finish(throwing: error)
            downloadContinuation.finish(throwing: error)
        }
        let waiting = outcome.withLock {
            outcome -> [CheckedContinuation<Result<DataResponse<Value>, any Error>, Never>] in
            guard case .pending(let waiting) = outcome else { return [] }
            outcome = .finished(result)
            return waiting
        }
        for continuation in waiting { continuation.resume(returning: result) }
    }
}

/// A snapshot of a transfer's progress in one direction.
public struct TransferProgress: Sendable, Hashable {
    /// Bytes transferred so far.
    public var completedUnitCount: Int64
    /// Bytes expected in total, `-1` when unknown (a chunked body).
    public var totalUnitCount: Int64

    /// Creates a snapshot.
    public init(completed: Int64, total: Int64) {
        completedUnitCount = completed
        totalUnitCount = total
    }

    init(_ progress: Progress) {
        self.init(completed: progress.completedUnitCount, total: progress.totalUnitCount)
    }

    /// `completed / total` in 0…1; `0` while the total is unknown, `1` for an empty total.
    public var fractionCompleted: Double {
        if totalUnitCount == 0 { return 1 }
        guard totalUnitCount > 0 else { return 0 }
        return min(1, Double(completedUnitCount) / Double(totalUnitCount))
    }
}

extension HTTPSessionManager {
    /// Starts `method` to `urlString` and returns a tracked task whose progress and response you
    /// await, serialized by ``responseSerializer``.
    ///
    /// ```swift
    /// let transfer = manager.transfer("GET", "files/1m.bin")
    /// for try await progress in transfer.downloadProgress { print(progress.fractionCompleted) }
    /// let data = try await transfer.response.data
    /// ```
    public func transfer(
        _ method: String,
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil
    ) -> TrackedTask<(any Sendable)?> {
        transfer(
            method,
            urlString,
            parameters: parameters,
            headers: headers,
            serializer: AnyResponseSerializer(responseSerializer)
        )
    }

    /// Starts `method` to `urlString` with the response serialized by `serializer`.
    public func transfer<Serializer: ResponseSerializing>(
        _ method: String,
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        serializer: Serializer
    ) -> TrackedTask<Serializer.Output> {
        let request = Result {
            try self.request(method: method, urlString: urlString, parameters: parameters, headers: headers)
        }
        return TrackedTask(session: session, request: request, serializer: serializer)
    }

    /// Starts a multipart `POST` (see
    /// ``POST(_:parameters:headers:constructingBodyWith:progress:success:failure:)``) whose
    /// upload progress you can follow.
    public func multipartTransfer(
        _ urlString: String,
        parameters: Parameters? = nil,
        headers: [String: String]? = nil,
        constructingBodyWith block: (inout MultipartFormData) throws -> Void
    ) -> TrackedTask<(any Sendable)?> {
        let request = Result {
            try multipartRequest(
                urlString: urlString,
                parameters: parameters,
                headers: headers,
                constructingBodyWith: block
            )
        }
        return TrackedTask(session: session, request: request, serializer: AnyResponseSerializer(responseSerializer))
    }
}

/// The former name of ``TrackedTask``.
@available(*, deprecated, renamed: "TrackedTask")
public typealias HTTPTransfer<Value: Sendable> = TrackedTask<Value>
