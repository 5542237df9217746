import Foundation
import GannetTestSupport
import Testing

/// `gannet --stream` (`-S`) against the fault server's event-stream routes
/// (Tests/Servers/event_stream_routes.py): events and lines printed as they arrive.
@Suite("gannet --stream")
struct CLIStreamTests: CLIServerSuite {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    @Test func eventsArePrintedAsAnEventStreamWithTheHead() async throws {
        // The story's first connection: events 1-3 written byte by byte, then half an event
        // (never printed) and a close; the CLI does not reconnect.
        let result = try await GannetBinary.run(["-S", "--print=hb", "\(fault)/sse/story/\(UUID().uuidString)"])
        #expect(result.status == 0, "\(result.err)")
        let expected =
            "retry: 50\n\n"
            + (1...3).map { "id: \($0)\nevent: tick\ndata: event \($0)\n\n" }.joined()
        #expect(result.out.hasPrefix("HTTP/1.1 200"), "\(result.out)")
        #expect(result.out.contains("Content-Type: text/event-stream"))
        #expect(result.out.hasSuffix("\n\n" + expected), "\(result.out)")
        #expect(!result.out.contains("lost"))
    }

    @Test func ndjsonLinesAreFormattedOneByOne() async throws {
        let plain = try await GannetBinary.run(["--stream", "\(fault)/sse/ndjson?count=4"])
        #expect(plain.status == 0, "\(plain.err)")
        // CRs dropped, the blank line kept, every line ended by LF.
        let lines = plain.out.split(separator: "\n", omittingEmptySubsequences: false)
        // Required before the lines are indexed: a short output must fail the test, not crash the runner.
        try #require(lines.count == 6, "\(plain.out)")
        #expect(lines[2] == "")
        #expect(lines[0] == #"{"n": 0, "text": "line 0 \u00e9"}"#)
        let formatted = try await GannetBinary.run(["--stream", "--pretty=format", "\(fault)/sse/ndjson?count=4"])
        #expect(formatted.status == 0, "\(formatted.err)")
        // Each line is its own indented document.
        #expect(formatted.out.components(separatedBy: "{\n").count == 5, "\(formatted.out)")
        // The formatter keeps every token as the server wrote it, escapes included.
        #expect(formatted.out.contains(#""text": "line 3 \u00e9""#), "\(formatted.out)")
    }

    @Test func ctrlCEndsAnEndlessStreamWith130AndColouredJSONData() async throws {
        let key = UUID().uuidString
        let result = try await GannetBinary.runInterrupted(["-S", "--pretty=all", "\(fault)/sse/forever?key=\(key)"]) {
            String(decoding: $0, as: UTF8.self).components(separatedBy: "data:").count > 3
        }
        #expect(result.status == 130, "\(result.err)")
        #expect(result.err.contains("gannet: interrupted"))
        // The data is JSON, so it is re-indented and coloured, each line a `data:` line.
        #expect(result.out.contains("\u{1B}["), "\(result.out)")
        #expect(result.out.contains("\"n\""), "\(result.out)")
        #expect(
            await eventuallyAsync {
                guard let log = try? await GannetBinary.run(["\(fault)/sse/log/\(key)"]),
                    let object = try? log.json()
                else { return false }
                return object["disconnects"] as? Int == 1
            },
            "the server never saw the command go"
        )
    }
}
