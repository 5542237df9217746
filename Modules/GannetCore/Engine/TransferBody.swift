/// The body a transfer sends, and which body each hop sends: none after a change to `GET` or
/// `HEAD`, the redirect's own, or the same again, where a stream already read must be given
/// anew by `taskNeedNewBodyStream` (docs/engine.md, "Redirects"). A value with no I/O; the
/// transfer asks for the new stream (``Transfer/renewBodyStream()``).
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
}
