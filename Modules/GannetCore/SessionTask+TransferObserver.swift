/// How a task takes its transfer's reports, through its ``TaskChannel``: counters, the response,
/// progress handlers, and the outcome. The transfer never touches the task's storage itself
/// (docs/engine.md).
extension SessionTask {
    func transferWillSend(_ request: URLRequest, expectedToSend: Int64?) {
        storage.withLock { storage in
            storage.currentRequest = request
            if let expectedToSend { storage.countOfBytesExpectedToSend = expectedToSend }
        }
        if let expectedToSend { existingProgress(upload: true)?.totalUnitCount = expectedToSend }
    }

    func transferDidReceiveHead(_ head: ResponseHead, response: LazyResponse?) {
        var expected = head.expectedContentLength
        // A resumed download counts from the bytes its file kept (URLSession's
        // didResumeAtOffset): progress and the expected total include them.
        if case .file(let file) = sink, file.resume != nil, let offset = try? file.continuation(of: head) {
            if expected >= 0 { expected += offset }
            storage.withLock { $0.resumedOffset = offset }
            manager.hooks.withLock({ $0.downloadTaskDidResume })?(manager, self, offset, expected)
        }
        storage.withLock { storage in
            // `response` is documented as available once the head arrived; built on first
            // access (the transfer's own object), so a task nobody asks costs no HTTPURLResponse.
            storage.lazyResponse = response
            storage.countOfBytesExpectedToReceive = expected
        }
        existingProgress(upload: false)?.totalUnitCount = expected
    }

    func transferDidProgress(received: Int64, sent: Int64, notifiesHandlers: Bool, final: Bool) {
        let received = storage.withLock { storage in
            storage.countOfBytesReceived = received + storage.resumedOffset
            storage.countOfBytesSent = sent
            return storage.countOfBytesReceived
        }
        guard notifiesHandlers else { return }
        let handlers = progressHandlers
        // A Progress someone holds is kept current even without a handler.
        if let download = handlers.download.map({ _ in downloadProgress }) ?? existingProgress(upload: false) {
            download.completedUnitCount = received
            if final && download.totalUnitCount < received { download.totalUnitCount = received }
            handlers.download?(download)
        }
        if let upload = handlers.upload.map({ _ in uploadProgress }) ?? existingProgress(upload: true) {
            upload.completedUnitCount = sent
            if final && upload.totalUnitCount < sent { upload.totalUnitCount = sent }
            handlers.upload?(upload)
        }
    }

    func transferDidEnd(_ outcome: consuming TransferOutcome) {
        complete(outcome)
    }
}
