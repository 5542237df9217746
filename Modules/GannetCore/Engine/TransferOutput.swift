/// Where a transfer's response body goes: its sink, and for a data task's
/// `multipart/x-mixed-replace` body, the parts it is split into first (docs/core.md,
/// "x-mixed-replace"). One value because they change together: the parts are split only into
/// the memory sink a data task begins with, and a sink switch (Transfer+Disposition.swift) is
/// refused while they are.
struct TransferOutput {
    /// Replaced once at most, by a disposition that continues the body elsewhere.
    var sink: any BodySink
    /// Set when the head announces a mixed-replace body and no deferred hook awaits it.
    var parts: MixedReplaceParts?
    /// The sink's hand-over is queued for the end of the loop's pass (docs/engine.md,
    /// "Handing bytes over").
    var handOverQueued = false

    /// Whether the body may continue in another task and sink: a data task's whole body.
    var canSwitchSink: Bool { sink is MemorySink && parts == nil }
}
