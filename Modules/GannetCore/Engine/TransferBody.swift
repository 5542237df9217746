/// The body a transfer sends, and which body each hop sends: none after a change to `GET` or
/// `HEAD`, the redirect's own, or the same again, where a stream already read must be given
/// anew by `taskNeedNewBodyStream` (docs/engine.md, "Redirects"). A value with no I/O; the
/// stream is asked of the task side (``prepare(method:asking:url:)``).
struct TransferBody {
    /// What the hop in flight sends; `nil` for no body.
    var source: BodySource?
    /// The next hop sends a streamed body that an earlier hop read: it must be given again.
    var needsNewStream = false

    /// Whether the body could be sent again on another hop: it is not a stream, or the caller
    /// gives a new stream when asked (`renewable`: a `taskNeedNewBodyStream` hook is set).
    func canBeSentAgain(renewable: Bool) -> Bool {
        (source?.isRepeatable ?? true) || renewable
    }

    /// The body the next hop, to `next`, sends after a hop that sent `previous`.
    mutating func choose(for next: URLRequest, previous: URLRequest) {
        let method = next.httpMethod ?? "GET"
        if ASCII.equalsIgnoringCase(method, "GET") || ASCII.equalsIgnoringCase(method, "HEAD") {
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

    /// The body of a hop sending `method` to `url`, as it is configured: a new stream, asked of
    /// `taskNeedNewBodyStream` (through `observer`), for a hop that sends a stream again (throws
    /// when none is given); an empty body for a `POST` without one.
    mutating func prepare(method: String, asking observer: any TransferObserver, url: URL?) throws {
        if needsNewStream {
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
        if source == nil && ASCII.equalsIgnoringCase(method, "POST") { source = .data(Data()) }
    }
}
