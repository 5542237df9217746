import Gannet

/// Runs `gannet [METHOD] URL [ITEM ...]`: builds the request, sends it, prints what was asked
/// for, and returns the exit status.
struct RequestCommand {
    let invocation: Invocation
    let terminal: Terminal

    var options: Options { invocation.options }
    var selection: Options.PrintSelection { options.printSelection(stdoutIsTerminal: terminal.stdoutIsTerminal) }
    var pretty: Options.Pretty {
        options.prettiness(stdoutIsTerminal: terminal.stdoutIsTerminal, noColor: terminal.noColor)
    }
    /// The body goes to a file: heads are printed on stderr, httpie's download layout. Not with
    /// `--offline`, which has no body to save and prints the request on stdout.
    var savesToFile: Bool { !options.offline && (options.download || options.output != nil) }

    func run() async throws -> ExitStatus {
        var invocation = self.invocation
        let terminal = self.terminal
        let warnings = Palette(enabled: options.colorsDiagnostics(on: terminal))
        let rawBody = try invocation.body.map { body in
            try RawBody.load(body) {
                terminal.err(
                    warnings.warning(
                        "gannet: warning: nothing on stdin for \(StandardInput.patience / 1000) s; still waiting for the body (--ignore-stdin if there is none)"
                    ) + "\n"
                )
            }
        }
        // Stdin that ended before its first byte holds no body: the method is inferred again.
        if case .empty = rawBody, !invocation.methodIsExplicit, !invocation.items.contains(where: \.isData) {
            invocation.method = "GET"
        }
        let sessionFile = try options.session.map { try SessionFile($0, for: invocation.url) }
        let saved = try sessionFile?.load()
        if let saved { SessionFile.applyAuth(saved, to: &invocation.options) }
        try PasswordPrompt.complete(&invocation.options, host: invocation.url.host ?? "")
        var request = try RequestBuilder.build(invocation, rawBody: rawBody)
        let cookies = EphemeralCookieStorage()
        if let saved { SessionFile.apply(saved, to: &request, storage: cookies) }
        if options.offline {
            // No session is made, so no connection is opened; the request line names the
            // protocol that would be tried first.
            printRequest(request, httpVersion: nil)
            return .success
        }
        var configuration = try SessionSettings.configuration(for: options, url: invocation.url)
        configuration.httpCookieStorage = cookies
        let session = SessionManager(configuration: configuration)
        defer { session.invalidateAndCancel() }
        if invocation.options.authType.answersChallenge, let auth = invocation.options.auth {
            let colon = auth.firstIndex(of: ":") ?? auth.endIndex
            session.credential = URLCredential(
                user: String(auth[..<colon]),
                password: String(auth[colon...].dropFirst()),
                persistence: .none
            )
            // In the scheme -A named only: a server offering Basic gets nothing, as curl's
            // --digest (docs/cli.md); the credential goes to the URL's origin only.
            session.credentialSchemes = invocation.options.authType == .ntlm ? .ntlm : .digest
        }
        let outcome: Result<ExitStatus, any Error>
        do {
            outcome = .success(try await exchange(request, on: session))
        } catch {
            outcome = .failure(error)
        }
        // Saved whatever the exchange gave, as httpie does: a login that answered 401 still
        // set what it set.
        if let sessionFile, let saved {
            let headerItems = invocation.items.compactMap { item -> (String, String)? in
                if case .header(let name, let value) = item { return (name, value) }
                return nil
            }
            try sessionFile.save(saved, headerItems: headerItems, storage: cookies, options: invocation.options)
        }
        return try outcome.get()
    }

    /// Sends `request` on `session` and prints what was asked for.
    private func exchange(_ request: URLRequest, on session: SessionManager) async throws -> ExitStatus {
        if savesToFile {
            return try await DownloadCommand(command: self, session: session).run(request)
        }
        if options.stream {
            return try await StreamCommand(command: self, session: session).run(request)
        }
        // A body that is printed as it came, alone, to a pipe or a file is streamed: never held
        // in memory, whatever its size. Printing the request or the metrics needs the task's
        // metrics (the protocol used), which the streaming API does not give.
        if options.interpretation == nil, pretty == .none, !terminal.stdoutIsTerminal, !selection.responseHeaders,
            !selection.requestHeaders, !selection.requestBody, !selection.metrics
        {
            return try await stream(request, on: session)
        }
        let response = await fetch(request, on: session)
        printRequest(request, httpVersion: response.metrics?.httpVersion)
        let data = try response.result.get()
        guard let httpResponse = response.response else {
            throw CLIError("the server sent no HTTP response")
        }
        let body = try interpret(data, request: response.request ?? request, response: httpResponse)
        let palette = Palette(enabled: pretty.colors)
        if selection.responseHeaders {
            terminal.out(
                MessageFormatter.responseHead(
                    httpResponse,
                    head: response.responseHead,
                    httpVersion: response.metrics?.httpVersion,
                    palette: palette
                ) + "\n"
            )
        }
        if selection.responseBody, !body.isEmpty {
            terminal.out(body)
            // Formatted output ends with a newline; raw bytes to a pipe stay exactly as received.
            if terminal.stdoutIsTerminal || (pretty.format && body != data), body.last != UInt8(ascii: "\n") {
                terminal.out("\n")
            }
        }
        if selection.metrics {
            terminal.out(
                (selection.responseBody && !body.isEmpty ? "\n" : "")
                    + MetricsFormatter.text(response.metrics, palette: palette)
            )
        }
        return finalStatus(httpResponse, head: response.responseHead)
    }

    /// The exit status for a response: `--check-status` maps 3xx/4xx/5xx to 3/4/5 and says so
    /// on stderr when stdout is not a terminal (where the status line is not visible).
    func finalStatus(_ response: HTTPURLResponse, head: ResponseHead?) -> ExitStatus {
        guard options.checkStatus else { return .success }
        let status = ExitStatus.checking(statusCode: response.statusCode)
        if status != .success, !terminal.stdoutIsTerminal || !selection.responseHeaders {
            let palette = Palette(enabled: options.colorsDiagnostics(on: terminal))
            terminal.err(
                palette.warning("gannet: warning: HTTP \(MessageFormatter.statusText(response.statusCode, head: head))")
                    + "\n"
            )
        }
        return status
    }

    /// Prints the request head and body for `-v` / `--print=HB`, once the exchange has ended,
    /// so that the request line names the protocol actually used (`httpVersion`).
    func printRequest(_ request: URLRequest, httpVersion: String?) {
        guard selection.requestHeaders || selection.requestBody else { return }
        let terminal = self.terminal
        let savesToFile = self.savesToFile
        let write: (String) -> Void = { text in
            if savesToFile { terminal.err(text) } else { terminal.out(text) }
        }
        let palette = Palette(enabled: pretty.colors && (savesToFile ? terminal.stderrIsTerminal : true))
        var text = ""
        if selection.requestHeaders {
            text += MessageFormatter.requestHead(request, httpVersion: httpVersion, palette: palette) + "\n"
        }
        if selection.requestBody {
            if let body = request.httpBody, !body.isEmpty {
                let renderer = BodyRenderer(pretty: pretty, toTerminal: terminal.stdoutIsTerminal)
                let kind = BodyRenderer.kind(of: request.value(forHTTPHeaderField: "Content-Type"))
                text += String(decoding: renderer.render(body, kind: kind), as: UTF8.self) + "\n\n"
            } else if request.httpBodyStream != nil {
                let length = request.value(forHTTPHeaderField: "Content-Length").map { "\($0) bytes" } ?? "chunked"
                text += "[\(request.value(forHTTPHeaderField: "Content-Type") ?? "streamed") body, \(length)]\n\n"
            }
        }
        write(text)
    }

    /// Sends `request` and writes the body to stdout chunk by chunk as it arrives (core's
    /// `bytes(for:)`, which stops reading from the socket while stdout is slow).
    func stream(_ request: URLRequest, on session: SessionManager) async throws -> ExitStatus {
        let bar = ProgressBar(terminal: terminal, label: "", delay: 1)
        defer { bar.finish() }
        let (response, body) = try await session.bytes(for: request)
        let expected = response.expectedContentLength
        var received: Int64 = 0
        for try await chunk in body {
            terminal.out(chunk)
            received += Int64(chunk.count)
            bar.update(completed: received, total: expected)
        }
        return finalStatus(response, head: nil)
    }

    /// Sends `request` as a data task, showing a progress bar for long transfers; cancelling
    /// the Swift task (Ctrl-C, see `Interrupt`) cancels it.
    func fetch(_ request: URLRequest, on session: SessionManager) async -> DataResponse<Data> {
        let bar = ProgressBar(terminal: terminal, label: "", delay: 1)
        var report: (@Sendable (Progress) -> Void)?
        if bar.isEnabled {
            report = { progress in bar.update(completed: progress.completedUnitCount, total: progress.totalUnitCount) }
        }
        let response = await session.response(
            for: request,
            serializer: PassthroughResponseSerializer(),
            uploadProgress: report,
            downloadProgress: report
        )
        bar.finish()
        return response
    }

    /// The body to print: read by the response serializer `--as` names, or formatted by its
    /// `Content-Type`.
    func interpret(_ data: Data, request: URLRequest, response: HTTPURLResponse) throws -> Data {
        let renderer = BodyRenderer(pretty: pretty, toTerminal: terminal.stdoutIsTerminal)
        let contentType = response.value(forHTTPHeaderField: "Content-Type")
        guard let interpretation = options.interpretation else {
            return renderer.render(data, kind: BodyRenderer.kind(of: contentType))
        }
        // Every status is printed; --check-status decides the exit code.
        let anyStatus = IndexSet(integersIn: 100..<600)
        switch interpretation {
        case .json:
            let serializer = JSONResponseSerializer(
                readingOptions: [.fragmentsAllowed],
                acceptableStatusCodes: anyStatus,
                acceptableContentTypes: nil
            )
            _ = try serializer.serialize(request: request, response: response, data: data, error: nil)
            return renderer.render(data, kind: .json)
        case .xml:
            return try XMLInterpretation.render(data, request: request, response: response, renderer: renderer)
        case .string:
            var serializer = StringResponseSerializer(acceptableStatusCodes: anyStatus)
            serializer.emptyResponseCodes = Set(100..<600)
            return Data(try serializer.serialize(request: request, response: response, data: data, error: nil).utf8)
        case .data:
            let bytes = try HTTPResponseSerializer(acceptableStatusCodes: anyStatus).serialize(
                request: request,
                response: response,
                data: data,
                error: nil
            )
            return renderer.render(bytes, kind: .other)
        }
    }
}
