/// Polls `condition` every 10 ms for up to `seconds`; returns whether it came true.
///
/// The readiness wait for tests: act once something has happened, never after a fixed delay.
/// `seconds` is generous because only a condition that never comes true should reach it, however
/// loaded the machine.
public func eventually(within seconds: Double = 20, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
