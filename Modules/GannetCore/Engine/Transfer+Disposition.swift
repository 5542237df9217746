/// Dispositions that continue a transfer somewhere else: the sink switch behind
/// `ResponseDisposition.becomeDownload` and `.becomeStream` (docs/engine.md, "Switching
/// sinks"). Engine thread.
extension Transfer {
    /// Continues this transfer into a new task (a download writing to a temporary file, or a
    /// stream task's reader), before any body byte was delivered (the disposition is asked while
    /// the head is handled, or while receiving is paused for the deferred answer), so no byte is
    /// lost or delivered twice. Returns the error that fails the transfer instead, `nil` when it
    /// switched, when `disposition` needs no switch, or when a cancel of the data task won the
    /// race (its queued command ends the transfer).
    func switchSink(for disposition: ResponseDisposition) -> (any Error)? {
        guard disposition == .becomeDownload || disposition == .becomeStream, let head, let url else { return nil }
        guard sink is MemorySink, mixedReplace == nil else {
            let error = GannetError(
                .invalidRequest,
                "Only a data task's whole response can become a download or a stream",
                failingURL: url
            )
            return TransportError.urlError(gannet: error, url: url)
        }
        let dataTask = task
        let manager = dataTask.manager
        if disposition == .becomeStream {
            let state = ByteStreamState()
            guard let streamTask = manager.makeStreamTask(replacing: dataTask, state: state, driver: self) else {
                return nil
            }
            let streamSink = ByteStreamSink(state: state)
            try? streamSink.open(head: head, url: url, limits: configuration.limits)
            adopt(streamTask.task, sink: streamSink, head: head)
            hooks.dataTaskDidBecomeStreamTask?(manager, dataTask, streamTask)
            return nil
        }
        guard let downloadTask = manager.makeDownloadTask(replacing: dataTask, driver: self) else { return nil }
        let fileSink = FileSink(file: DownloadFile())
        do {
            try fileSink.open(head: head, url: url, limits: configuration.limits)
        } catch {
            task = downloadTask
            observer = downloadTask
            let gannet = error as? GannetError ?? GannetError(.bodyStreamFailed, "\(error)")
            return TransportError.urlError(gannet: gannet, url: url)
        }
        adopt(downloadTask, sink: fileSink, head: head)
        hooks.dataTaskDidBecomeDownloadTask?(manager, dataTask, downloadTask)
        return nil
    }

    /// Reports to `newTask` from now on, into `newSink`.
    private func adopt(_ newTask: SessionTask, sink newSink: any BodySink, head: ResponseHead) {
        task = newTask
        observer = newTask
        sink = newSink
        observer.transferDidReceiveHead(head, response: machine.hop.response)
    }
}
