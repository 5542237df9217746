/// Dispositions that continue a transfer somewhere else: the sink switch behind
/// `ResponseDisposition.becomeDownload` (docs/engine.md, "Switching sinks"). Engine thread.
extension Transfer {
    /// Continues this transfer into a new download task writing to a temporary file, before any
    /// body byte was delivered (the disposition is asked while the head is handled, or while
    /// receiving is paused for the deferred answer), so no byte is lost or written twice.
    /// Returns the error that fails the transfer instead, `nil` when it switched, or when a
    /// cancel of the data task won the race (its queued command ends the transfer).
    func switchSink(for disposition: ResponseDisposition) -> (any Error)? {
        guard disposition == .becomeDownload, let head, let url else { return nil }
        guard sink is MemorySink, mixedReplace == nil else {
            let error = GannetError(
                .invalidRequest,
                "Only a data task's whole response can become a download",
                failingURL: url
            )
            return TransportError.urlError(gannet: error, url: url)
        }
        let dataTask = task
        guard let downloadTask = dataTask.manager.makeDownloadTask(replacing: dataTask, driver: self) else {
            return nil
        }
        task = downloadTask
        observer = downloadTask
        let fileSink = FileSink()
        do {
            try fileSink.open(head: head, url: url, limits: configuration.limits)
        } catch {
            let gannet = error as? GannetError ?? GannetError(.bodyStreamFailed, "\(error)")
            return TransportError.urlError(gannet: gannet, url: url)
        }
        sink = fileSink
        observer.transferDidReceiveHead(head, response: response)
        hooks.dataTaskDidBecomeDownloadTask?(downloadTask.manager, dataTask, downloadTask)
        return nil
    }
}
