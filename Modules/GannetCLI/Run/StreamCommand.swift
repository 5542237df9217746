import Gannet

/// `--stream` (httpie's `-S`): prints the response as it arrives, one event or one line at a
/// time, each formatted and coloured as a whole body would be (docs/cli.md, docs/streaming.md).
///
/// A `text/event-stream` body is printed as events (WHATWG parsing, `EventStreamParser`), in
/// the wire's own form, so that the output is itself an event stream: `id:` when it changes,
/// `event:` when not `message`, the data (re-indented and coloured when it is JSON) as `data:`
/// lines, then a blank line. Any other body is printed line by line, JSON lines (NDJSON, JSON
/// Lines, or JSON one document a line) formatted one by one. Nothing is held beyond one line
/// (1 MiB at most); Ctrl-C cancels the transfer and exits with 130, as every command does.
struct StreamCommand {
    let command: RequestCommand
    let session: SessionManager

    /// The longest line or event printed; a longer one ends the command with an error.
    static let maximumLineBytes = 1 << 20

    func run(_ request: URLRequest) async throws -> ExitStatus {
        let terminal = command.terminal
        let selection = command.selection
        let pretty = command.pretty
        let (response, body) = try await session.bytes(for: request)
        command.printRequest(request, httpVersion: nil)
        let palette = Palette(enabled: pretty.colors)
        if selection.responseHeaders {
            terminal.out(MessageFormatter.responseHead(response, head: nil, httpVersion: nil, palette: palette) + "\n")
        }
        guard selection.responseBody else { return command.finalStatus(response, head: nil) }
        let contentType = response.value(forHTTPHeaderField: "Content-Type")
        let renderer = BodyRenderer(pretty: pretty, toTerminal: terminal.stdoutIsTerminal)
        if EventStreamParser.isEventStream(contentType: contentType) {
            var printer = EventPrinter(renderer: renderer, toTerminal: terminal.stdoutIsTerminal)
            var parser = EventStreamParser(maximumEventBytes: Self.maximumLineBytes)
            for try await chunk in body {
                for output in try parser.consume(chunk) { terminal.out(printer.text(for: output)) }
            }
        } else {
            let kind = Self.lineKind(contentType)
            var lines = LineSplitter(endings: .lf, maximumLineBytes: Self.maximumLineBytes)
            let printLine = { (line: [UInt8]) in
                terminal.out(renderer.render(Data(line), kind: kind))
                terminal.out("\n")
            }
            for try await chunk in body {
                var complete: [[UInt8]] = []
                try chunk.withUnsafeBytes { bytes in try lines.consume(bytes) { complete.append(Array($0)) } }
                for line in complete { printLine(line) }
            }
            if let last = lines.finish() { printLine(last) }
        }
        return command.finalStatus(response, head: nil)
    }

    /// JSON for the JSON media types and the line-delimited ones (`application/x-ndjson`,
    /// `application/jsonl`, `application/json-seq`'s cousins), else by the body's type.
    static func lineKind(_ contentType: String?) -> BodyRenderer.Kind {
        let kind = BodyRenderer.kind(of: contentType)
        guard kind == .other || kind == .text, let contentType, let mediaType = MediaType(contentType) else {
            return kind
        }
        let lineTypes: Set<String> = ["x-ndjson", "ndjson", "jsonl", "x-jsonlines", "jsonlines", "json-seq"]
        return lineTypes.contains(mediaType.subtype) ? .json : kind
    }
}

/// Turns parsed event-stream outputs into printed text.
struct EventPrinter {
    let renderer: BodyRenderer
    let toTerminal: Bool
    private var lastID = ""

    init(renderer: BodyRenderer, toTerminal: Bool) {
        self.renderer = renderer
        self.toTerminal = toTerminal
    }

    mutating func text(for output: EventStreamParser.Output) -> String {
        let palette = renderer.palette
        switch output {
        case .retry(let milliseconds):
            return palette.comment("retry: \(milliseconds)") + "\n\n"
        case .event(let event):
            var text = ""
            if event.lastEventID != lastID {
                lastID = event.lastEventID
                text += palette.key("id:") + " " + safe(event.lastEventID) + "\n"
            }
            if event.type != "message" {
                text += palette.key("event:") + " " + palette.string(safe(event.type)) + "\n"
            }
            let data = Data(event.data.utf8)
            let kind: BodyRenderer.Kind =
                (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil ? .json : .text
            let rendered =
                kind == .json ? String(decoding: renderer.render(data, kind: .json), as: UTF8.self) : safe(event.data)
            for line in rendered.split(separator: "\n", omittingEmptySubsequences: false) {
                text += palette.key("data:") + " " + line + "\n"
            }
            return text + "\n"
        }
    }

    /// Text from the server, control characters made visible on a terminal (ControlEscaping);
    /// to a pipe, the bytes as they were (a multi-line value stays several `data:` lines).
    private func safe(_ text: String) -> String {
        guard toTerminal else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { ControlEscaping.escaped(String($0)) }
            .joined(separator: "\n")
    }
}
