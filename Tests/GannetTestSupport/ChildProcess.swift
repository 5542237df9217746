public import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A child process for the tests, started with `posix_spawn`: the part of Foundation's
/// `Process` the tests use (executable, arguments, environment, working directory, standard
/// streams as a `Pipe` or a `FileHandle`, waiting, signals, a termination handler).
///
/// Foundation's `Process.run()` on Linux (swift-corelibs-foundation 6.3.1, this toolchain)
/// scans `/proc/self/fd` with a 256-byte copy of each `dirent`'s name, over-reading the short
/// records `readdir` returns; when one ends at an unmapped page the test process dies with
/// SIGSEGV (swift-corelibs-foundation pull request 5472, fixed after 6.3.1). A suite that
/// starts hundreds of processes (every CLI test runs `gannet`) met it about once a run. This
/// type never lists descriptors: the child closes every descriptor above 2 with
/// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34), as `Process` closed them one by one.
///
/// Configure it, then call ``run()`` once; the state after that is behind a lock.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: the configuration is written before run() by the one thread that owns the
    // value, and only read after; the exit state is only touched under `exit`'s lock.
    public var executableURL: URL?
    public var arguments: [String]?
    /// The child's whole environment; `nil` inherits this process's.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    /// A `Pipe` (the child gets its reading end) or a `FileHandle` (`.nullDevice` is /dev/null);
    /// `nil` inherits ours.
    public var standardInput: Any?
    /// A `Pipe` (the child gets its writing end) or a `FileHandle`; `nil` inherits ours.
    public var standardOutput: Any?
    /// As ``standardOutput``.
    public var standardError: Any?
    /// Called once, on a thread of its own, when the child has exited.
    public var terminationHandler: (@Sendable (ChildProcess) -> Void)?

    private struct Exit {
        var pid: pid_t = 0
        var status: Int32?
        var signalled = false
    }

    private let exit = NSCondition()
    private var state = Exit()

    public init() {}

    /// The child's process ID, 0 before ``run()``.
    public var processIdentifier: Int32 { locked { $0.pid } }

    /// Whether the child was started and has not been reaped yet.
    public var isRunning: Bool { locked { $0.pid != 0 && $0.status == nil } }

    /// The exit status, or the signal that ended the child; call after ``waitUntilExit()``.
    public var terminationStatus: Int32 { locked { $0.status ?? 0 } }

    /// Whether the child exited or was ended by a signal.
    public var terminationReason: Process.TerminationReason {
        locked { $0.signalled ? .uncaughtSignal : .exit }
    }

    /// Starts the child; throws a POSIX error when it cannot be started.
    public func run() throws {
        guard let executable = executableURL?.path else {
            throw POSIXError(.ENOENT)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let streams: [(Any?, Int32, Bool)] = [
            (standardInput, 0, true), (standardOutput, 1, false), (standardError, 2, false),
        ]
        for (stream, target, reads) in streams {
            guard let source = Self.descriptor(of: stream, childReads: reads) else { continue }
            if source < 0 {
                // FileHandle.nullDevice has no descriptor of its own: Process opens /dev/null.
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", reads ? O_RDONLY : O_WRONLY, 0)
            } else {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            }
        }
        if let directory = currentDirectoryURL?.path {
            guard let addChdir = Self.addChdir else { throw POSIXError(.ENOSYS) }
            _ = directory.withCString { addChdir(&actions, $0) }
        }
        guard let addCloseFrom = Self.addCloseFrom else { throw POSIXError(.ENOSYS) }
        _ = addCloseFrom(&actions, 3)

        // The child starts with every signal at its default and none blocked, whatever this
        // process ignores (SIGPIPE) or blocks: tests interrupt it with SIGINT and SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let argv = ([executable] + (arguments ?? [])).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") }
        let envp = variables + [nil]
        defer { for variable in variables { free(variable) } }

        var pid: pid_t = 0
        let result = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EIO)
        }
        let child = pid
        locked { $0.pid = child }
        // As Process does: the child's ends of pipes are closed here, so reading our end sees
        // end-of-file when the child exits.
        Self.closeChildEnds(standardInput, childReads: true)
        Self.closeChildEnds(standardOutput, childReads: false)
        Self.closeChildEnds(standardError, childReads: false)

        let thread = Thread { [self] in reap(child) }
        thread.name = "ChildProcess \(child)"
        thread.start()
    }

    /// Blocks until the child has exited and been reaped.
    public func waitUntilExit() {
        exit.lock()
        while state.pid != 0 && state.status == nil { exit.wait() }
        exit.unlock()
    }

    /// Sends SIGTERM, as `Process.terminate()`.
    public func terminate() { send(SIGTERM) }

    /// Sends SIGINT, as `Process.interrupt()`.
    public func interrupt() { send(SIGINT) }

    /// Sends `signal` while the child has not been reaped (its ID is not yet anyone else's).
    public func send(_ signal: Int32) {
        exit.lock()
        defer { exit.unlock() }
        if state.pid != 0 && state.status == nil { kill(state.pid, signal) }
    }

    private func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let signalled = (status & 0x7f) != 0 && (status & 0x7f) != 0x7f
        let code = signalled ? status & 0x7f : (status >> 8) & 0xff
        exit.lock()
        state.status = code
        state.signalled = signalled
        exit.broadcast()
        exit.unlock()
        terminationHandler?(self)
    }

    private func locked<T>(_ body: (inout Exit) -> T) -> T {
        exit.lock()
        defer { exit.unlock() }
        return body(&state)
    }

    private static func descriptor(of stream: Any?, childReads: Bool) -> Int32? {
        switch stream {
        case let pipe as Pipe:
            return childReads ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        case let handle as FileHandle:
            return handle === FileHandle.nullDevice ? -1 : handle.fileDescriptor
        default:
            return nil
        }
    }

    private static func closeChildEnds(_ stream: Any?, childReads: Bool) {
        guard let pipe = stream as? Pipe else { return }
        try? (childReads ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
    }

    private typealias FileAction =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32
        ) -> Int32
    private typealias PathAction =
        @convention(c) (
            UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>
        ) -> Int32

    // glibc declares these two only under _GNU_SOURCE, which the Glibc module does not define:
    // looked up once by name instead.
    private static let addCloseFrom: FileAction? = symbol("posix_spawn_file_actions_addclosefrom_np")
    private static let addChdir: PathAction? = symbol("posix_spawn_file_actions_addchdir_np")

    private static func symbol<T>(_ name: String) -> T? {
        guard let address = dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) else { return nil }
        return unsafeBitCast(address, to: T.self)
    }
}
