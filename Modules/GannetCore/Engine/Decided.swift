internal import Synchronization

/// Honours a deferred decision once: the first of several racing answers (a deferred
/// disposition's, a stream task's) claims it, and the others are ignored.
final class Decided: Sendable {
    private let done = Atomic<Bool>(false)
    func claim() -> Bool {
        done.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged
    }
}
