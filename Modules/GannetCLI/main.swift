// Nothing of it is called: imported for its module map's `link ":libstdc++.a"`, which links the C++
// library the statically linked Swift runtime needs into `gannet` instead of loading
// libstdc++.so.6 at each start (Modules/CStaticLibStdCxx/shim.h, docs/performance.md, "Start-up").
import CStaticLibStdCxx
import Foundation

// `gannet`: an httpie-style HTTP client built on Gannet. See docs/cli.md or `gannet --help`.
//
// Not an async main: on Linux one parks the main thread in `dispatch_main` and runs top-level
// code on a thread of the main queue's own, so the start, and the return after the command,
// each start or wake another thread. The command runs in a detached task (nothing in it is
// main-actor bound) while the main thread serves Ctrl-C until it ends (`CommandRunner.run`,
// docs/performance.md, "Start-up").
Interrupt.install()
let status = CommandRunner(terminal: .current).run(Array(CommandLine.arguments.dropFirst()))
// `_exit`, not `exit`: the exit handlers would only free what the kernel frees anyway
// (OpenSSL's cleanup, the libraries' destructors, about 3% of a one-request process), while
// the engine thread may still be running. Every byte gannet prints goes out with write(2);
// stdio is flushed first all the same.
fflush(nil)
_exit(status)
