// parse-bench-client: response serialization beside Foundation's parsers.
//
//   parse-bench-client json|xml FILE --parser NAME [--iterations N]
//
// prints `seconds=<median of N parses> bytes=<file size>`. Parsers:
//   json: foundation (JSONSerialization), gannet (JSONResponseSerializer)
//   xml:  foundation (XMLParser over a stream, a delegate keeping names and text),
//         gannet (XMLStreamParser with the same handler), gannet-document (XMLDocument tree)
import BenchKit
import Foundation

var arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 2, let format = ["json", "xml"].first(where: { $0 == arguments[0] }) else {
    Report.usage("parse-bench-client json|xml FILE --parser NAME [--iterations N]")
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
guard let data = FileManager.default.contents(atPath: path) else { Report.fail("cannot read \(path)") }

let parse: () -> Void
switch (format, parser) {
case ("json", "foundation"): parse = { FoundationParsers.json(data) }
case ("json", "gannet"): parse = { GannetParsers.json(data) }
case ("xml", "foundation"): parse = { FoundationParsers.xml(path: path) }
case ("xml", "gannet"): parse = { GannetParsers.xmlEvents(data) }
case ("xml", "gannet-document"): parse = { GannetParsers.xmlDocument(data) }
default: Report.unsupported("no \(format) parser named \(parser)")
}

var times: [UInt64] = []
for _ in 0..<iterations {
    let start = Clock.now()
    parse()
    times.append(Clock.now() - start)
}
times.sort()
print("seconds=\(String(format: "%.4f", Double(times[times.count / 2]) / 1e9)) bytes=\(data.count)")
