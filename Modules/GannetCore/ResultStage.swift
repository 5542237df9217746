/// What turns a finished transfer into a task's result, the one step of a ``ResponsePipeline``
/// that differs between tasks: a response serializer for data and upload tasks
/// (``SerializerStage``), the download finisher for download tasks (``DownloadSerializer``).
/// Generic, so the pipeline calls it without a type probe or a cast.
protocol ResultStage<Output>: Sendable {
    /// The task's value on success.
    associatedtype Output: Sendable

    /// The task's result. Runs on the processing queue, or where the transfer ended for the
    /// passthrough serializer (``ResponsePipeline``).
    func result(
        of outcome: TransferOutcome,
        response: LazyResponse?,
        task: SessionTask,
        manager: SessionManager
    ) -> Result<Output, any Error>

    /// The serializer `gannetTaskDidComplete` names: the caller's, never a wrapper of Gannet's.
    var reportedSerializer: any ResponseSerializing { get }

    /// The file a successful download ended in, for `gannetTaskDidComplete`'s userInfo; `nil`
    /// for tasks whose body stayed in memory.
    func downloadedFile(in value: Output) -> URL?
}

extension ResultStage {
    func downloadedFile(in value: Output) -> URL? { nil }
}

/// A data or upload task's result: its response serializer, run only over a transfer that
/// succeeded (as AFNetworking's task delegate: a failed transfer's error goes to the
/// completion as it is, and a serializer that ignored its `error` input cannot turn it into a
/// success).
struct SerializerStage<Serializer: ResponseSerializing>: ResultStage {
    let serializer: Serializer
    let reportedSerializer: any ResponseSerializing

    init(_ serializer: Serializer) {
        self.serializer = serializer
        // Unwrapped once here, not at every completion. A type comparison first: a caller's
        // generic call reaches here unspecialized, where `as?` is a run-time cast that searches
        // conformances, about 500 instructions a task (callgrind, docs/performance.md).
        if Serializer.self == AnyResponseSerializer.self, let erased = serializer as? AnyResponseSerializer {
            reportedSerializer = erased.base
        } else {
            reportedSerializer = serializer
        }
    }

    func result(
        of outcome: TransferOutcome,
        response: LazyResponse?,
        task: SessionTask,
        manager: SessionManager
    ) -> Result<Serializer.Output, any Error> {
        if let error = outcome.error { return .failure(error) }
        if Serializer.self == PassthroughResponseSerializer.self {
            // Gannet's own serializer returns the body: no input is made for it. Making one
            // copied the request and the body, and destroying it released them, through value
            // witnesses, about 170 instructions a request more than this (docs/performance.md).
            // The bit cast is between a type and itself.
            let body = PassthroughResponseSerializer.body(outcome.data)
            return .success(unsafeBitCast(body, to: Serializer.Output.self))
        }
        let input = ResponseInput(request: outcome.request, lazyResponse: response, data: outcome.data, error: nil)
        return Result { try serializer.serialize(input) }
    }
}
