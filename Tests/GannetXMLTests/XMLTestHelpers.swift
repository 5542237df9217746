import GannetTestSupport
import GannetXML
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Parses `xml` and returns its events.
func events(_ xml: String, options: XMLParsingOptions = XMLParsingOptions()) throws -> [XMLEvent] {
    try XMLStreamParser.parse(Data(xml.utf8), handler: XMLEventRecorder(), options: options).events
}

/// Parses `bytes` and returns its events.
func events(_ bytes: [UInt8], options: XMLParsingOptions = XMLParsingOptions()) throws -> [XMLEvent] {
    try XMLStreamParser.parse(bytes, handler: XMLEventRecorder(), options: options).events
}

/// The ``XMLError`` parsing `data` ends with; `nil` if it parses.
func parseError(_ data: some DataProtocol, options: XMLParsingOptions = XMLParsingOptions()) -> XMLError? {
    do {
        _ = try XMLStreamParser.parse(data, handler: XMLEventRecorder(), options: options)
        return nil
    } catch let error as XMLError {
        return error
    } catch {
        Issue.record("Expected an XMLError, got \(error)")
        return nil
    }
}

func parseError(_ xml: String, options: XMLParsingOptions = XMLParsingOptions()) -> XMLError? {
    parseError(Data(xml.utf8), options: options)
}

/// Everything the events carry as text, to search for leaked content.
func allText(_ events: [XMLEvent]) -> String {
    events.map { String(describing: $0) }.joined(separator: "\n")
}

/// The element names of start events, in order.
func startNames(_ events: [XMLEvent]) -> [String] {
    events.compactMap { event in
        if case .startElement(let name, _, _, _, _) = event { return name }
        return nil
    }
}

/// Runs `body` and returns how far resident memory rose above where it was, at its peak.
///
/// The kernel's peak counter (`VmHWM`) is reset first by writing 5 to `/proc/self/clear_refs`,
/// so a transient spike during `body` is caught even if the memory is freed before it returns.
/// The counter is process-wide, so a test running in parallel (another module's download, say)
/// can add its own spike: when a run comes out at `limit` or above, `body` runs again, up to
/// three times, and the smallest growth counts. `body` is deterministic, so a real blow-up
/// shows every time.
func peakMemoryGrowth<T>(under limit: Int = fiftyMegabytes, _ body: () throws -> T) rethrows -> (result: T, bytes: Int)
{
    var smallest = Int.max
    var result: T?
    for _ in 0..<3 {
        let reset = open("/proc/self/clear_refs", O_WRONLY)
        if reset >= 0 {
            _ = write(reset, "5", 1)
            close(reset)
        }
        let before = residentMemoryBytes()
        let value = try body()
        let peak = max(peakResidentMemoryBytes(), residentMemoryBytes())
        smallest = min(smallest, max(0, peak - before))
        if result == nil { result = value }
        if smallest < limit { break }
    }
    return (result!, smallest)
}

let fiftyMegabytes = 50 * 1024 * 1024
