/// `ResponseDisposition.becomeDownload`: a data task handing its transfer to a new download task,
/// as NSURLSession's does and with AFNetworking's delegate move (docs/core.md, "Response
/// dispositions").
extension SessionManager {
    /// Creates the download task that continues `dataTask`'s transfer (`driver`) and swaps it for
    /// the data task in the task table, moving the data task's completion handler and progress
    /// handlers to it under the table's lock, as AFNetworking moves its task delegate. The data
    /// task leaves the table marked completed without its completion handler being called.
    /// Returns `nil` when the data task is no longer running or suspended: a cancel won the race
    /// and its command, already queued on the engine, ends the transfer.
    func makeDownloadTask(replacing dataTask: SessionTask, driver: any TransferDriver) -> SessionTask? {
        let identifier = Self.nextIdentifier.wrappingAdd(1, ordering: .relaxed).oldValue
        let finisher = DownloadSerializer(destination: nil, validator: responseSerializer)
        let completion = dataTask.onComplete
        let downloadTask = SessionTask(
            identifier: identifier,
            kind: .download,
            request: dataTask.originalRequest ?? URLRequest(url: URL(fileURLWithPath: "/")),
            body: dataTask.body,
            sink: .file,
            manager: self,
            progress: dataTask.progressHandlers
        ) { task, outcome in
            var outcome = outcome
            outcome.becameDownload = finisher
            completion(task, outcome)
        }
        let moved = taskTable.withLock { table -> Bool in
            let taken = dataTask.storage.withLock { storage -> SessionTask.Storage? in
                guard storage.state == .running || storage.state == .suspended else { return nil }
                let before = storage
                storage.state = .completed
                storage.driver = nil
                return before
            }
            guard let taken else { return false }
            downloadTask.update { storage in
                storage.state = taken.state
                storage.started = true
                storage.driver = driver
                storage.currentRequest = taken.currentRequest
                storage.taskDescription = taken.taskDescription
                storage.countOfBytesSent = taken.countOfBytesSent
                storage.countOfBytesExpectedToSend = taken.countOfBytesExpectedToSend
            }
            table.removeValue(forKey: dataTask.taskIdentifier)
            table[identifier] = downloadTask
            return true
        }
        return moved ? downloadTask : nil
    }

    /// For the download task a data task became: validates the response, moves the file to
    /// its destination (``DownloadSerializer``) and records where it went or why it failed,
    /// before the data task's serializer and completion handler see the outcome. Processing
    /// queue.
    func finishBecameDownload(_ outcome: TransferOutcome, of task: SessionTask) -> TransferOutcome {
        guard let finisher = outcome.becameDownload else { return outcome }
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
            outcome.fileURL = try finisher.serialize(download)
        } catch {
            outcome.fileURL = nil
            outcome.error = error
        }
        return outcome
    }
}
