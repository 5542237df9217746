/// One event of a `text/event-stream` response, as a browser's `MessageEvent` has it.
///
/// ```swift
/// for try await event in source.events where event.type == "update" {
///     print(event.data, event.lastEventID)
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The `event:` field, or `"message"` when the event had none.
    public var type: String
    /// The `data:` lines joined with LF, without a final LF.
    public var data: String
    /// The stream's last event ID when this event was dispatched: the latest `id:` field so
    /// far, which an event without one inherits (`""` when none was sent).
    public var lastEventID: String

    /// An event; `type` defaults to `"message"` as on the wire.
    public init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }

    /// The type, the ID and the data's length, for logs (the data itself may be long or private).
    public var description: String {
        "ServerSentEvent(type: \(type.debugDescription), id: \(lastEventID.debugDescription), data: \(data.count) characters)"
    }
}
