/// Trusts every server without looking at it. **For tests against throwaway servers only**:
/// with it, anyone on the network path can read and change your traffic.
///
/// It exists so that a test that really means "no verification" says so by name instead of
/// switching verification off some quieter way.
public struct DisabledTrustEvaluator: ServerTrustEvaluating, Sendable {
    /// Creates the evaluator.
    public init() {}

    /// Accepts everything.
    public func evaluate(_ trust: ServerTrust) throws {}
}
