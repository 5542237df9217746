import Testing

@testable import GannetCore

/// The engine's choice to wait briefly for the next command (docs/engine.md, "Waking the
/// engine"), as a value: waits while they pay, probes once in 16 chances when they do not.
@Suite("BriefWaitPolicy: wait while waiting pays")
struct BriefWaitPolicyTests {
    /// Offers `chances` chances to wait; each wait is recorded with `paid`. Returns the chances
    /// (counted from 1) at which it waited.
    func offer(_ chances: Int, to policy: inout BriefWaitPolicy, paid: Bool) -> [Int] {
        var waited: [Int] = []
        for chance in 1...chances where policy.shouldWait() {
            waited.append(chance)
            policy.record(paid: paid)
        }
        return waited
    }

    @Test func waitsFromTheStartAndWhileWaitsPay() {
        var policy = BriefWaitPolicy()
        #expect(offer(100, to: &policy, paid: true) == Array(1...100))
    }

    @Test func oneMissInFourChangesNothing() {
        var policy = BriefWaitPolicy()
        for round in 0..<40 {
            let waits = policy.shouldWait()
            #expect(waits)
            policy.record(paid: round % 4 != 0)
        }
    }

    @Test func afterFiveMissesInEightItProbesOnceInSixteenChances() {
        var policy = BriefWaitPolicy()
        // Four misses leave four of the last eight paid: it still waits the fifth time.
        #expect(offer(5, to: &policy, paid: false) == [1, 2, 3, 4, 5])
        #expect(offer(48, to: &policy, paid: false) == [16, 32, 48])
    }

    @Test func probesThatPayBringTheWaitsBack() {
        var policy = BriefWaitPolicy()
        _ = offer(5, to: &policy, paid: false)
        // Each paying probe shifts a paid wait in and an old one out; the fourth makes four of
        // the last eight, and it waits at every chance again.
        #expect(offer(64, to: &policy, paid: true) == [16, 32, 48, 64])
        #expect(offer(10, to: &policy, paid: true) == Array(1...10))
    }
}
