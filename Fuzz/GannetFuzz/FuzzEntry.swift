import CLibFuzzer
import Foundation

/// libFuzzer's driver and entry points. One executable serves every target so that one build
/// covers them all; `GANNET_FUZZ_TARGET` picks the target (scripts/fuzz.sh sets it; see
/// docs/reliability.md). libFuzzer's own `main` cannot be used: SwiftPM links a debug
/// executable with its module's `main`, so this one hands the arguments to the driver.
@main
enum GannetFuzz {
    static func main() {
        let name = ProcessInfo.processInfo.environment["GANNET_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget.all.first(where: { $0.name == name }) else {
            let names = FuzzTarget.all.map(\.name).joined(separator: " ")
            FileHandle.standardError.write(Data("GANNET_FUZZ_TARGET must name one of: \(names)\n".utf8))
            exit(2)
        }
        selected = target
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        exit(LLVMFuzzerRunDriver(&argc, &argv, testOneInput))
    }
}

/// Written once, in `main`, before libFuzzer runs the first input; libFuzzer runs inputs on
/// the thread that called its driver, one at a time.
nonisolated(unsafe) private var selected: FuzzTarget?

/// Also exported under libFuzzer's name, which its library references.
@_cdecl("LLVMFuzzerTestOneInput")
func testOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = start.map { [UInt8](UnsafeBufferPointer(start: $0, count: count)) } ?? []
    selected?.run(bytes)
    return 0
}
