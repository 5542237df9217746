/// Polls `condition` every 10 ms for up to `seconds`; returns whether it came true.
///
/// The readiness wait for tests: act once something has happened, never after a fixed delay.
/// `seconds` is generous because only a condition that never comes true should reach it, however
/// loaded the machine: 120 s, since in a parallel pass on two cores the first half-minute can go
/// to other suites (a fresh-clone run saw most tests of the pass end 30-48 s in, and 20 s waits
/// that began early ran out before their condition could come true).
public func eventually(within seconds: Double = 120, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return true
}
