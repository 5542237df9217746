extension FaultRoute {
    /// A reconnection story for `key` (Tests/Servers/event_stream_routes.py): the first request
    /// gets `retry: 50` and events 1-3 written byte by byte, then half an event and a close; the
    /// second, events 4-5 (CRLF and CR line ends, a field split over two writes), then half an
    /// event and a TCP reset; the third and later, `204 No Content`.
    public static func eventStory(key: String) -> FaultRoute { FaultRoute("/sse/story/\(key)") }
    /// JSON `{"last_event_ids": [...], "disconnects": N}` for the story or endless stream of `key`.
    public static func eventLog(key: String) -> FaultRoute { FaultRoute("/sse/log/\(key)") }
    /// `200 text/plain` whose body looks like an event stream.
    public static let eventStreamWrongType = FaultRoute("/sse/wrong-type")
    /// `200 text/event-stream`, `data: ` and then `a` bytes for ever, no line end.
    public static let eventStreamNeverEnds = FaultRoute("/sse/never-ends")
    /// An event (`id: N`, `data: {"n": N}`) every 20 ms until the client goes away; counted in
    /// ``eventLog(key:)``.
    public static func eventStreamForever(key: String) -> FaultRoute { FaultRoute("/sse/forever?key=\(key)") }
    /// `application/x-ndjson`: `count` objects `{"n": i, "text": "line i é"}` in uneven writes,
    /// CRLF after every third line, one blank line after the second.
    public static func ndjson(count: Int) -> FaultRoute { FaultRoute("/sse/ndjson?count=\(count)") }
}
