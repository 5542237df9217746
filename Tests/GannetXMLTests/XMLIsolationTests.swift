import GannetXML
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("libxml2: silent and thread-safe")
struct XMLIsolationTests {
    /// Inputs that make libxml2's default handlers print: fatal errors, recoverable errors,
    /// namespace warnings, encoding conversion errors, entity table errors.
    static let noisyDocuments: [(String, XMLParsingOptions)] = {
        var trusting = XMLParsingOptions()
        trusting.allowsInternalEntities = true
        return [
            ("<a><b></a>", XMLParsingOptions()),
            ("<a xmlns:p='relative/uri'><p:b/></a>", XMLParsingOptions()),
            ("<p:a/>", XMLParsingOptions()),
            ("<a>&undefined;</a>", XMLParsingOptions()),
            ("<?xml version='1.0' encoding='x-nonsense'?><a/>", XMLParsingOptions()),
            ("<?xml version='1.0' encoding='Shift_JIS'?><a>\u{FFFD}\u{FFFD}</a>", XMLParsingOptions()),
            ("<!DOCTYPE a [<!ENTITY e 'one'><!ENTITY e 'two'><!ENTITY lt 'not allowed'>]><a>&e;</a>", trusting),
            ("<!DOCTYPE a [<!ENTITY x SYSTEM 'file:///etc/passwd'>]><a>&x;</a>", XMLParsingOptions()),
            ("<a><!-- -- --></a>", XMLParsingOptions()),
            ("<a>]]></a>", XMLParsingOptions()),
            ("", XMLParsingOptions()),
        ]
    }()

    @Test func nothingReachesStandardError() async throws {
        let capture = try StandardErrorCapture()
        for (xml, options) in Self.noisyDocuments {
            _ = parseError(xml, options: options)
            _ = try? XMLDocument.parse(data: Data(xml.utf8), options: options)
        }
        // Fresh threads start with libxml2's default handlers; parse there too.
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for (xml, options) in Self.noisyDocuments { _ = parseError(xml, options: options) }
                }
            }
        }
        let marker = "gannet-stderr-capture-works"
        FileHandle.standardError.write(Data("\(marker)\n".utf8))
        let output = try capture.finish()
        // The capture itself works: the marker went through it.
        #expect(output.contains(marker))
        for word in [
            "parser error", "namespace error", "namespace warning", "encoding error", "error :", "warning :", "Entity:",
            "I/O",
        ] {
            #expect(!output.contains(word), "stderr got: \(output)")
        }
    }

    @Test func manyParsersRunAtOnceWithTheSameResultsAsOneByOne() async throws {
        let documents: [String] = (0..<24).map { index in
            switch index % 4 {
            case 0:
                "<list n='\(index)'>\(String(repeating: "<item a='\(index)'>text &amp; \(index)</item>", count: 300))</list>"
            case 1: "<a>\n<b>\(index)</c></a>"
            case 2: "<!DOCTYPE r [<!ENTITY e 'x'>]><r>&e;</r>"
            default: "<?xml version='1.0' encoding='ISO-8859-1'?><r xmlns='urn:\(index)'><c>\(index)</c></r>"
            }
        }
        func outcome(_ xml: String) -> String {
            do {
                let recorded = try XMLStreamParser.parse(Data(xml.utf8), handler: XMLEventRecorder()).events
                let tree = try XMLDocument.parse(data: Data(xml.utf8))
                return
                    "\(recorded.count) \(tree.root?.descendants(named: "item").count ?? -1) \(tree.root?.text.count ?? -1)"
            } catch let error as XMLError {
                return "\(error.code) \(error.line):\(error.column) \(error.message)"
            } catch {
                return "\(error)"
            }
        }
        let expected = documents.map(outcome)
        #expect(Set(expected).count > 4)
        let results = await withTaskGroup(of: (Int, [String]).self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var seen: [String] = []
                    for round in 0..<40 {
                        seen.append(outcome(documents[(worker * 7 + round) % documents.count]))
                    }
                    return (worker, seen)
                }
            }
            var all: [(Int, [String])] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 8)
        for (worker, seen) in results {
            for (round, result) in seen.enumerated() {
                #expect(result == expected[(worker * 7 + round) % documents.count])
            }
        }
    }
}

/// Points file descriptor 2 at a temporary file until ``finish()``.
private final class StandardErrorCapture {
    private let saved: Int32
    private let path: String
    private var finished = false

    init() throws {
        path = NSTemporaryDirectory() + "gannet-xml-stderr-\(UUID().uuidString)"
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard file >= 0 else { throw POSIXError(.EIO) }
        saved = dup(2)
        dup2(file, 2)
        close(file)
    }

    func finish() throws -> String {
        finished = true
        dup2(saved, 2)
        close(saved)
        defer { unlink(path) }
        return try String(contentsOfFile: path, encoding: .utf8)
    }

    deinit {
        if !finished {
            dup2(saved, 2)
            close(saved)
            unlink(path)
        }
    }
}
