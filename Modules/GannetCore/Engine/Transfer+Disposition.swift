/// Dispositions that continue a transfer somewhere else: the sink switch behind
/// `ResponseDisposition.becomeDownload` and `.becomeStream` (docs/engine.md, "Switching
/// sinks"). Engine thread.
extension Transfer {
    /// Asks the response hook about `response` now (a head, or a mixed-replace part's head);
    /// returns the state machine's answer when the disposition stops the transfer (it cancels,
    /// or a sink switch is refused), `nil` when the transfer goes on.
    func askDisposition(for response: HTTPURLResponse) -> TransferStateMachine.Answer? {
        let disposition = observer.transferDisposition(for: response)
        if disposition == .cancel { return machine.stop(TransportError.cancelled(.byDisposition, url: url)) }
        return switchSink(for: disposition).map { machine.stop($0) }
    }

    /// Continues this transfer into a new task (a download writing to a temporary file, or a
    /// stream task's reader), before any body byte was delivered (the disposition is asked while
    /// the head is handled, or while receiving is paused for the deferred answer), so no byte is
    /// lost or delivered twice. Returns the error that fails the transfer instead, `nil` when it
    /// switched, when `disposition` needs no switch, or when a cancel of the data task won the
    /// race (its queued command ends the transfer).
    func switchSink(for disposition: ResponseDisposition) -> (any Error)? {
        guard disposition == .becomeDownload || disposition == .becomeStream, let head, let url else { return nil }
        guard output.canSwitchSink else {
            let error = GannetError(
                .invalidRequest,
                "Only a data task's whole response can become a download or a stream",
                failingURL: url
            )
            return TransportError.urlError(gannet: error, url: url)
        }
        // The task side makes the download or stream task and swaps it in; nil when a cancel
        // of the data task won the race.
        let state = disposition == .becomeStream ? ByteStreamState() : nil
        let next =
            if let state {
                observer.transferContinueAsStream(state: state, driver: self)
            } else {
                observer.transferContinueAsDownload(driver: self)
            }
        guard let next else { return nil }
        // Reports to the new task's side from now on, into its sink.
        observer = next
        let newSink: any BodySink = state.map { ByteStreamSink(state: $0) } ?? FileSink(file: DownloadFile())
        do {
            try newSink.open(head: head, url: url, limits: configuration.limits)
        } catch {
            return TransportError.urlError(thrown: error, as: .bodyStreamFailed, url: url)
        }
        output.sink = newSink
        observer.transferDidReceiveHead(head, response: machine.hop.lazyResponse())
        observer.transferDidTakeOver()
        return nil
    }
}
