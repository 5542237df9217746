/// The body a transfer sends, and which body each hop sends: none after a change to `GET` or
/// `HEAD`, the redirect's own, or the same again, where a stream already read must be given
/// anew by `taskNeedNewBodyStream` (docs/engine.md, "Redirects"). A value with no I/O; the
/// stream is asked of the task side (``renewStream(asking:url:)``).
struct TransferBody {
    /// What the hop in flight sends; `nil` for no body.
    var source: BodySource?
    /// The next hop sends a streamed body that an earlier hop read: it must be given again.
    var needsNewStream = false

    /// The body the next hop, to `next`, sends after a hop that sent `previous`.
    mutating func choose(for next: URLRequest, previous: URLRequest) {
        let method = (next.httpMethod ?? "GET").uppercased()
        if method == "GET" || method == "HEAD" {
            source = nil
        } else if let data = next.httpBody {
            source = .data(data)
        } else if let stream = next.httpBodyStream, previous.httpBodyStream !== stream {
            source = .stream(stream)
        } else if let source, !source.isRepeatable {
            // The same stream, already read: the hop asks for a new one when it is configured.
            needsNewStream = true
        }
    }

    /// Asks `taskNeedNewBodyStream` (through `observer`) for a new stream of the body, for a
    /// hop that sends it again; throws when none is given.
    mutating func renewStream(asking observer: any TransferObserver, url: URL?) throws {
        guard needsNewStream else { return }
        needsNewStream = false
        guard let stream = observer.transferNeedsNewBodyStream() else {
            let error = GannetError(
                .requestRetryFailed,
                "The request's streamed body must be sent again, and taskNeedNewBodyStream gave no new stream",
                failingURL: url
            )
            throw TransportError.urlError(gannet: error, url: url)
        }
        source = .stream(stream)
    }
}
