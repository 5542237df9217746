/// ``eventually(within:_:)`` for a condition that must itself wait, such as asking a test
/// server what it saw: polls every 20 ms for up to `seconds`; returns whether it came true.
public func eventuallyAsync(within seconds: Double = 120, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while await !condition() {
        if ContinuousClock.now > deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}
