extension FaultRoute {
    /// A `multipart/x-mixed-replace` stream of `count` parts, part `big` 5 MiB, written in
    /// uneven pieces so boundaries are split across reads (Tests/Servers/mixed_replace_routes.py).
    public static func mixedReplace(count: Int, big: Int) -> FaultRoute {
        FaultRoute("/mixed-replace/parts?count=\(count)&big=\(big)")
    }
}
