/// `ResponseDisposition.becomeDownload` and `.becomeStream`: a data task handing its transfer to
/// a new task, as NSURLSession's does and with AFNetworking's delegate move (docs/core.md,
/// "Response dispositions").
extension SessionManager {
    /// Creates the download task that continues `dataTask`'s transfer (`driver`) and swaps it for
    /// the data task in the task table (``replace(_:with:driver:)``). Its completion first
    /// finishes the file as a download task does (``finishBecameDownload(_:of:)``), then runs
    /// the data task's completion handler. `nil` when a cancel won the race.
    func makeDownloadTask(replacing dataTask: SessionTask, driver: any TransferDriver) -> SessionTask? {
        let finisher = BecameDownload(DownloadSerializer(destination: nil, validator: responseSerializer))
        let completion = dataTask.onComplete
        let downloadTask = SessionTask(
            identifier: Self.nextIdentifier.wrappingAdd(1, ordering: .relaxed).oldValue,
            kind: .download,
            request: dataTask.originalRequest ?? URLRequest(url: URL(fileURLWithPath: "/")),
            body: dataTask.body,
            sink: .file(DownloadFile()),
            manager: self,
            progress: dataTask.progressHandlers
        ) { task, outcome in
            var outcome = outcome
            outcome.becameDownload = finisher
            completion(task, outcome)
        }
        return replace(dataTask, with: downloadTask, driver: driver) ? downloadTask : nil
    }

    /// Creates the stream task whose reader takes the rest of `dataTask`'s body from `state`,
    /// and swaps its task for the data task (``replace(_:with:driver:)``); the data task's
    /// completion handler runs when the body ends. `nil` when a cancel won the race.
    func makeStreamTask(
        replacing dataTask: SessionTask,
        state: ByteStreamState,
        driver: any TransferDriver
    ) -> SessionStreamTask? {
        let task = SessionTask(
            identifier: Self.nextIdentifier.wrappingAdd(1, ordering: .relaxed).oldValue,
            kind: .stream,
            request: dataTask.originalRequest ?? URLRequest(url: URL(fileURLWithPath: "/")),
            body: dataTask.body,
            sink: .stream(state),
            manager: self,
            progress: dataTask.progressHandlers,
            onComplete: dataTask.onComplete
        )
        guard replace(dataTask, with: task, driver: driver) else { return nil }
        state.task.withLock { $0 = task }
        return SessionStreamTask(task: task, state: state)
    }

    /// Swaps `newTask` for `dataTask` in the task table, moving the data task's state,
    /// request, description and send counters to it under the table's lock, as AFNetworking
    /// moves its task delegate; `newTask` already has the data task's completion and progress
    /// handlers. The data task leaves the table marked completed without its completion handler
    /// being called (NSURLSession's `becomeDownload`). `false` when the data task is no longer
    /// running or suspended: a cancel won the race and its command, already queued on the
    /// engine, ends the transfer.
    private func replace(_ dataTask: SessionTask, with newTask: SessionTask, driver: any TransferDriver) -> Bool {
        taskTable.withLock { table -> Bool in
            let taken = dataTask.storage.withLock { storage -> SessionTask.Storage? in
                guard storage.state == .running || storage.state == .suspended else { return nil }
                let before = storage
                storage.state = .completed
                storage.driver = nil
                return before
            }
            guard let taken else { return false }
            newTask.update { storage in
                storage.state = taken.state
                storage.started = true
                storage.driver = driver
                storage.currentRequest = taken.currentRequest
                storage.taskDescription = taken.taskDescription
                storage.countOfBytesSent = taken.countOfBytesSent
                storage.countOfBytesExpectedToSend = taken.countOfBytesExpectedToSend
            }
            table.removeValue(forKey: dataTask.taskIdentifier)
            table[newTask.taskIdentifier] = newTask
            return true
        }
    }

    /// For the download task a data task became: validates the response, moves the file to
    /// its destination (``DownloadSerializer``) and records where it went or why it failed,
    /// before the data task's serializer and completion handler see the outcome. Processing
    /// queue.
    func finishBecameDownload(_ outcome: TransferOutcome, of task: SessionTask) -> TransferOutcome {
        guard let finisher = outcome.becameDownload?.finisher else { return outcome }
        var outcome = outcome
        let download = FinishedDownload(
            fileURL: outcome.fileURL,
            request: outcome.request,
            response: outcome.lazyResponse?.value,
            error: outcome.error,
            task: task,
            manager: self
        )
        do {
            outcome.fileURL = try finisher.finish(download)
        } catch {
            outcome.fileURL = nil
            outcome.error = error
        }
        return outcome
    }
}
