import Foundation
internal import Synchronization

/// Ctrl-C: the first SIGINT cancels the running command (a download then removes its partial
/// file) and the process exits with 130; a second one exits at once.
enum Interrupt {
    private static let count = Atomic<Int>(0)
    private static let action = Mutex<(@Sendable () -> Void)?>(nil)
    /// Written once, by `install()` on the main thread before any other work starts, and only
    /// kept so the source stays alive: never read concurrently.
    nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?

    static var happened: Bool { count.load(ordering: .relaxed) > 0 }

    /// Installs the handler; called once, from `main`, before any work starts.
    static func install() {
        // A parent may have started us with SIGINT blocked (a blocked mask is inherited across
        // exec); Ctrl-C must work whoever launched the command.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        signal(SIGINT, SIG_IGN)
        let signalSource = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        signalSource.setEventHandler {
            if count.add(1, ordering: .relaxed).newValue > 1 { exit(130) }
            action.withLock { $0 }?()
            TaskRegistry.current.cancel()
        }
        signalSource.resume()
        source = signalSource
    }

    /// What the first Ctrl-C does, besides cancelling the registered session task.
    static func onInterrupt(_ body: @escaping @Sendable () -> Void) {
        action.withLock { $0 = body }
    }
}
