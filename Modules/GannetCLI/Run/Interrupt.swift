import Foundation
internal import Synchronization

/// Ctrl-C: the first SIGINT cancels the running command (a download then removes its partial
/// file) and the process exits with 130; a second one exits at once.
enum Interrupt {
    private static let interrupts = Atomic<Int>(0)
    private static let action = Mutex<(@Sendable () -> Void)?>(nil)

    static var happened: Bool { interrupts.load(ordering: .relaxed) > 0 }

    /// Installs the handler; called once, from `main`, before any work starts.
    ///
    /// A `sigaction` handler writes one byte to a pipe (all it may safely do) and the main
    /// thread, which has nothing else to do while the command runs, reads the pipe in
    /// ``serve()`` and cancels the command. Whichever thread the kernel picks to deliver SIGINT
    /// runs the handler, so no Ctrl-C is lost. (The former `SIG_IGN` plus a dispatch signal
    /// source lost a Ctrl-C that came before the source was registered, since an ignored signal
    /// is discarded: the CLI tests met it under load. A thread of its own for the reads cost
    /// every `gannet URL` a thread's start: docs/performance.md, "Start-up".)
    static func install() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        wakeUpPipeReadEnd = ends[0]
        interruptPipeWriteEnd = ends[1]
        var handler = sigaction()
        handler.__sigaction_handler.sa_handler = interruptSignalHandler
        sigemptyset(&handler.sa_mask)
        handler.sa_flags = SA_RESTART
        sigaction(SIGINT, &handler, nil)
        // A parent may have started us with SIGINT blocked (a blocked mask is inherited across
        // exec); Ctrl-C must work whoever launched the command.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// Runs each Ctrl-C's action on the calling thread (`main`'s) until ``commandEnded()``:
    /// the first cancels the command, a second exits at once.
    static func serve() {
        // Without a pipe (install() could not make one) there is no handler either: Ctrl-C
        // keeps its default action, and only the command's end is waited for.
        var byte: UInt8 = 0
        while wakeUpPipeReadEnd >= 0 {
            let count = read(wakeUpPipeReadEnd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1, byte == 1 else { break }
            if interrupts.add(1, ordering: .relaxed).newValue > 1 { exit(130) }
            action.withLock { $0 }?()
        }
        ended.wait()
    }

    /// Ends ``serve()``; called once, by the command's task as it finishes.
    static func commandEnded() {
        ended.signal()
        guard interruptPipeWriteEnd >= 0 else { return }
        var byte: UInt8 = 0
        while write(interruptPipeWriteEnd, &byte, 1) < 0 && errno == EINTR {}
    }

    private static let ended = DispatchSemaphore(value: 0)

    /// Runs `body`, a read that nothing can cancel (the password prompt's), so that a Ctrl-C
    /// during it runs `cleanup` and exits with 130 at once; afterwards Ctrl-C does what it did.
    static func exitingAtOnce<T>(cleanup: @escaping @Sendable () -> Void, _ body: () throws -> T) rethrows -> T {
        let previous = action.withLock { current in
            defer {
                current = {
                    cleanup()
                    exit(130)
                }
            }
            return current
        }
        defer { action.withLock { $0 = previous } }
        return try body()
    }

    /// What the first Ctrl-C does (`CommandRunner` cancels the command's Swift task, which
    /// cancels the transfer it awaits). Runs at once when a Ctrl-C came before it was set.
    static func onInterrupt(_ body: @escaping @Sendable () -> Void) {
        action.withLock { $0 = body }
        if happened { body() }
    }
}

/// The pipe's ends, set once by `Interrupt.install()` before the handler is installed and only
/// read after: the handler must not touch Swift runtime state, so they are plain globals.
nonisolated(unsafe) private var interruptPipeWriteEnd: Int32 = -1
nonisolated(unsafe) private var wakeUpPipeReadEnd: Int32 = -1

/// The SIGINT handler: async-signal-safe, it only writes one byte to the pipe, a 1
/// (`Interrupt.commandEnded()` writes a 0).
private func interruptSignalHandler(_ signal: Int32) {
    var byte: UInt8 = 1
    _ = write(interruptPipeWriteEnd, &byte, 1)
}
