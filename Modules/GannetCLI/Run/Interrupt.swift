import Foundation
internal import Synchronization

/// Ctrl-C: the first SIGINT cancels the running task, so a download removes its partial file
/// and the command ends with status 130; a second one exits at once.
enum Interrupt {
    private static let count = Atomic<Int>(0)
    nonisolated(unsafe) private static var source: (any DispatchSourceSignal)?

    static var happened: Bool { count.load(ordering: .relaxed) > 0 }

    /// Installs the handler; called once, from `main`, before any work starts.
    static func install() {
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if count.add(1, ordering: .relaxed).newValue > 1 { exit(130) }
            TaskRegistry.current.cancel()
        }
        source.resume()
        Self.source = source
    }
}
