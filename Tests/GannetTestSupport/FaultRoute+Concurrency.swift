extension FaultRoute {
    /// Holds the request `milliseconds`, then `200 held`, counting it in flight for `key`
    /// meanwhile (as aborted when the client closes the connection first); see
    /// Tests/Servers/concurrency_routes.py.
    public static func concurrencyHold(key: String, milliseconds: Int) -> FaultRoute {
        FaultRoute("/concurrency/hold?key=\(key)&ms=\(milliseconds)")
    }

    /// JSON `{"max", "in_flight", "started", "finished", "aborted"}` for `key`: the most
    /// ``concurrencyHold(key:milliseconds:)`` requests held at once, and how they ended.
    public static func concurrencyStats(key: String) -> FaultRoute {
        FaultRoute("/concurrency/max?key=\(key)")
    }
}
