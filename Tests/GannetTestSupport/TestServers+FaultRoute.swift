public import GannetCore

extension TestServers {
    /// The fault server's URL for `route`.
    public func url(_ route: FaultRoute) -> URL {
        var base = fault.absoluteString
        if base.hasSuffix("/") { base.removeLast() }
        // Every route's path and query is ASCII built above, so the URL always parses.
        return URL(string: base + route.pathAndQuery)!
    }
}
