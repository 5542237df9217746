// parse-bench-client: response serialization beside Foundation's parsers.
//
//   parse-bench-client json|xml FILE --parser foundation|gannet [--iterations N]
//
// prints `seconds=<median of N parses> bytes=<file size>`. The Gannet parsers
// (GannetResponseSerialization's JSON serializer, GannetXML) are not on main yet, so
// `--parser gannet` exits 2 (unsupported) until they land.
import BenchKit
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let format = ["json", "xml"].first(where: { $0 == arguments[0] }) else {
    Report.usage("parse-bench-client json|xml FILE --parser foundation|gannet [--iterations N]")
}
let path = arguments[1]
arguments.removeFirst(2)
var parser = "foundation"
var iterations = 5
while let flag = arguments.first {
    arguments.removeFirst()
    guard let value = arguments.first else { Report.usage("\(flag) needs a value") }
    arguments.removeFirst()
    switch flag {
    case "--parser": parser = value
    case "--iterations": iterations = max(Int(value) ?? 1, 1)
    default: Report.unsupported("flag \(flag)")
    }
}
guard parser == "foundation" else {
    Report.unsupported("parser \(parser): Gannet's \(format) serializer is not on main yet")
}
guard let data = FileManager.default.contents(atPath: path) else { Report.fail("cannot read \(path)") }

var times: [UInt64] = []
for _ in 0..<iterations {
    let start = Clock.now()
    switch format {
    case "json": FoundationParsers.json(data)
    default: FoundationParsers.xml(path: path)
    }
    times.append(Clock.now() - start)
}
times.sort()
print("seconds=\(String(format: "%.4f", Double(times[times.count / 2]) / 1e9)) bytes=\(data.count)")
