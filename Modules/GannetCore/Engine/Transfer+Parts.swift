/// A `multipart/x-mixed-replace` body (``MixedReplaceParts``): each part is reported as a
/// response of its own and asked about with the response hook as it begins, and its body
/// replaces the previous part's in the sink (docs/core.md, "x-mixed-replace").
extension Transfer {
    /// The write callback for a body split into parts.
    func didReceiveParts(_ bytes: UnsafeRawBufferPointer) -> Int {
        do {
            guard let events = try output.parts?.consume(bytes) else { return 0 }
            for event in events {
                let answer = deliverPart(event)
                if answer != .take { return reply(answer, lineLength: bytes.count) }
            }
        } catch {
            return reply(stop(thrown: error, as: .protocolViolation), lineLength: bytes.count)
        }
        counters.receivedBytes += Int64(bytes.count)
        reportProgress(final: false)
        return bytes.count
    }

    /// The body ended: the part in progress ends too, final boundary or not. The transfer has
    /// already ended, so a part refused now (its disposition cancelled) only stops the delivery.
    func finishParts() throws {
        guard let events = try output.parts?.finish() else { return }
        for event in events where deliverPart(event) == .refuse { return }
    }

    /// Handles one event of the parts; ``TransferStateMachine/Answer/refuse`` when the part's
    /// disposition cancelled the transfer.
    private func deliverPart(_ event: MixedReplaceParts.Event) -> TransferStateMachine.Answer {
        switch event {
        case .part(let part, let response):
            machine.hop.head = part
            machine.hop.response = response
            sink.replace()
            let lazy = machine.hop.lazyResponse()
            observer.transferDidReceiveHead(part, response: lazy)
            if let lazy { observer.transferDidReceiveResponse(lazy) }
            // A part cannot continue elsewhere: switchSink refuses it while parts are split.
            if hooks.decidesResponse, let response, let stopped = askDisposition(for: response) {
                return stopped
            }
        case .bytes(let bytes):
            bytes.withUnsafeBytes { try? sink.write($0) }
            bytes.withUnsafeBytes { observer.transferDidReceiveData($0) }
        }
        return .take
    }
}
