import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Asks for the password `--auth USER` left out, as httpie does: on the controlling terminal
/// (`/dev/tty`, whatever stdin and stdout are), with echo off, so the password is never shown
/// nor left in the shell's history.
enum PasswordPrompt {
    /// `USER:PASS` as given, or `USER` completed with a password read from the terminal. Basic
    /// and Digest credentials have a password; a bearer token is taken as it is.
    static func complete(_ options: inout Options, host: String) throws {
        guard let auth = options.auth, options.authType != .bearer, !auth.contains(":") else { return }
        let password = try read(prompt: "gannet: password for \(auth)@\(host): ")
        options.auth = auth + ":" + password
    }

    /// One line from the terminal, without its newline, read with echo off.
    static func read(prompt: String) throws -> String {
        let tty = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard tty >= 0 else {
            throw CLIError.usage(
                "--auth USER has no password and there is no terminal to ask for it on (give USER:PASS)"
            )
        }
        defer { close(tty) }
        var saved = termios()
        guard tcgetattr(tty, &saved) == 0 else {
            throw CLIError(
                "cannot read the terminal's settings to ask for the password: \(String(cString: strerror(errno)))"
            )
        }
        var silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO)
        silent.c_lflag |= tcflag_t(ECHONL)
        guard tcsetattr(tty, TCSAFLUSH, &silent) == 0 else {
            throw CLIError(
                "cannot turn the terminal's echo off to ask for the password: \(String(cString: strerror(errno)))"
            )
        }
        // Echo comes back however the read ends: on return, and on a Ctrl-C, which cannot
        // cancel the read and so exits from the interrupt thread (Interrupt.exitingAtOnce).
        defer { tcsetattr(tty, TCSAFLUSH, &saved) }
        let original = saved
        let restore: @Sendable () -> Void = {
            var settings = original
            tcsetattr(tty, TCSAFLUSH, &settings)
            Terminal.write(Data("\n".utf8), to: tty)
        }
        Terminal.write(Data(prompt.utf8), to: tty)
        var line = [UInt8]()
        try Interrupt.exitingAtOnce(cleanup: restore) {
            var byte: UInt8 = 0
            while true {
                let count = Glibc.read(tty, &byte, 1)
                if count < 0, errno == EINTR { continue }
                if count <= 0 || byte == UInt8(ascii: "\n") { break }
                line.append(byte)
                if line.count > 64 * 1024 { throw CLIError("the password typed is longer than 64 KiB") }
            }
        }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }
}
