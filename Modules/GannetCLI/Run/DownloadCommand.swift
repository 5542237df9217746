import Gannet

#if canImport(Glibc)
import Glibc
#endif

/// `--download` and `--output FILE`: the body is streamed to a temporary file by core's
/// download task and moved into place when complete, never held in memory. Heads go to
/// stderr, so stdout stays clean.
///
/// `--download` without `--output` names the file after `Content-Disposition`, else the URL's
/// last path component, never overwriting an existing file (`name-1.ext`, `name-2.ext`, as
/// httpie does), shows a progress bar at once and prints a summary; a response that is not
/// 2xx is not saved and exits with 3, 4 or 5. `--output` alone saves whatever body arrives
/// and exits as `--check-status` says. `--output` naming a directory is refused: a download
/// replaces a file (in one step) but never a directory.
struct DownloadCommand {
    let command: RequestCommand
    let session: SessionManager

    var terminal: Terminal { command.terminal }
    var options: Options { command.options }

    func run(_ request: URLRequest) async throws -> ExitStatus {
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let explicit = options.output.map { URL(fileURLWithPath: $0, relativeTo: directory).standardizedFileURL }
        // Refused before anything is sent; the core refuses it again when moving the file, should
        // the directory appear meanwhile (a download never replaces a directory).
        if let explicit, Self.isDirectory(explicit) {
            throw CLIError(
                "--output \(ControlEscaping.escaped(explicit.path)) is a directory; name a file (nothing was downloaded)"
            )
        }
        // Nor through a link, dangling or not: the core refuses it too (docs/cli.md, "Downloads").
        var status = stat()
        if let explicit, lstat(explicit.path, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            throw CLIError(
                "--output \(ControlEscaping.escaped(explicit.path)) is a symbolic link; name the file itself (nothing was downloaded)"
            )
        }
        let requireSuccess = options.download
        let bar = ProgressBar(terminal: terminal, label: "", delay: options.download ? 0 : 1)
        let started = Date()
        let requestURL = request.url
        var report: (@Sendable (Progress) -> Void)?
        if bar.isEnabled {
            report = { progress in bar.update(completed: progress.completedUnitCount, total: progress.totalUnitCount) }
        }
        let progressHandler = report
        let destination: @Sendable (URL, HTTPURLResponse) -> URL = { temporary, response in
            // A failed status in download mode is not saved: the temporary file stays where
            // it is and is deleted below.
            if requireSuccess, !(200..<300).contains(response.statusCode) { return temporary }
            return explicit ?? Self.availableName(for: response, url: requestURL, in: directory)
        }
        let response: DataResponse<URL>
        if options.continueDownload {
            guard let explicit else {
                throw CLIError.usage("--continue needs --output FILE: the file an interrupted download continues")
            }
            response = await ContinuableDownload(session: session, terminal: terminal, file: explicit)
                .run(request, destination: destination, progress: progressHandler)
        } else {
            // Cancelling the Swift task (Ctrl-C, see `Interrupt`) cancels the download.
            response = await session.downloadResponse(for: request, destination: destination, progress: progressHandler)
        }
        bar.finish()
        command.printRequest(request, httpVersion: response.metrics?.httpVersion)
        let file = try response.result.get()
        guard let httpResponse = response.response else { throw CLIError("the server sent no HTTP response") }
        let palette = Palette(enabled: command.pretty.colors && terminal.stderrIsTerminal)
        if command.selection.responseHeaders || options.download {
            terminal.err(
                MessageFormatter.responseHead(
                    httpResponse,
                    head: response.responseHead,
                    httpVersion: response.metrics?.httpVersion,
                    palette: palette
                ) + "\n"
            )
        }
        defer {
            if command.selection.metrics { terminal.err(MetricsFormatter.text(response.metrics, palette: palette)) }
        }
        if requireSuccess, !(200..<300).contains(httpResponse.statusCode) {
            try? FileManager.default.removeItem(at: file)
            terminal.err(
                "gannet: error: HTTP \(MessageFormatter.statusText(httpResponse.statusCode, head: response.responseHead)); nothing was saved\n"
            )
            let status = ExitStatus.checking(statusCode: httpResponse.statusCode)
            return status == .success ? .error : status
        }
        // The temporary file was created private (0600); a saved file gets the usual
        // permissions, as if the shell had created it.
        Self.makeShellReadable(file.path)
        if options.download {
            let bytes = response.metrics?.countOfResponseBodyBytesReceived ?? 0
            let seconds = max(Date().timeIntervalSince(started), 0.001)
            // The name may come from the server (Content-Disposition): printed escaped.
            terminal.err(
                "Saved \(ByteCount.text(bytes)) to \"\(ControlEscaping.escaped(file.path))\" in \(String(format: "%.2f", seconds)) s (\(ByteCount.text(Int64(Double(bytes) / seconds)))/s)\n"
            )
        }
        return command.finalStatus(httpResponse, head: response.responseHead)
    }

    /// Gives the saved file the mode the shell would (0666 less the umask), through a
    /// descriptor opened without following a link, so a link swapped in after the move is
    /// never followed to change another file's mode (docs/cli.md, "Downloads").
    static func makeShellReadable(_ path: String) {
        let mask = umask(0)
        umask(mask)
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            return
        }
        // A failure leaves the file 0600: private, the safe side.
        _ = fchmod(descriptor, 0o666 & ~mask)
    }

    /// Whether `url` is a directory, or a link to one.
    static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// A file name in `directory` that does not exist yet, from the response's
    /// `Content-Disposition` filename or the URL's last path component.
    static func availableName(for response: HTTPURLResponse, url: URL?, in directory: URL) -> URL {
        var name =
            dispositionFileName(response.value(forHTTPHeaderField: "Content-Disposition"))
            ?? url?.lastPathComponent ?? ""
        // Never let a server choose a path: keep the last component, drop hidden-file dots,
        // and no control characters in a name the user will type and list.
        name = String(name.split(separator: "/").last ?? "")
        name = String(String.UnicodeScalarView(name.unicodeScalars.map { ControlEscaping.needsEscape($0) ? "_" : $0 }))
        while name.hasPrefix(".") { name.removeFirst() }
        if name.isEmpty || name == "/" { name = "index" }
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        var candidate = directory.appendingPathComponent(name)
        var counter = 1
        // Any entry counts as taken, a dangling link included (`lstat`, not `stat`): the
        // download never replaces a link (docs/cli.md, "Downloads").
        var status = stat()
        while lstat(candidate.path, &status) == 0 {
            candidate = directory.appendingPathComponent("\(base)-\(counter)" + (ext.isEmpty ? "" : ".\(ext)"))
            counter += 1
        }
        return candidate
    }

    /// `filename` from `attachment; filename="report.pdf"` (RFC 6266), quoted or not. A quoted
    /// value is read as a quoted-string (RFC 9110 §5.6.4): `;` inside it is part of the name,
    /// and a backslash escapes the next character.
    static func dispositionFileName(_ header: String?) -> String? {
        guard let header, let typeEnd = header.firstIndex(of: ";") else { return nil }
        var rest = header[header.index(after: typeEnd)...]
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" }
            let name = rest.prefix { $0 != "=" && $0 != ";" }
            rest = rest.dropFirst(name.count)
            var value = ""
            if rest.first == "=" {
                rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
                if rest.first == "\"" {
                    rest = rest.dropFirst()
                    while let character = rest.popFirst(), character != "\"" {
                        if character == "\\", let escaped = rest.popFirst() {
                            value.append(escaped)
                        } else {
                            value.append(character)
                        }
                    }
                    rest = rest.drop { $0 != ";" }
                } else {
                    let token = rest.prefix { $0 != ";" }
                    value = token.trimmingCharacters(in: .whitespaces)
                    rest = rest.dropFirst(token.count)
                }
            }
            rest = rest.dropFirst()
            if name.trimmingCharacters(in: .whitespaces).lowercased() == "filename" {
                return value.isEmpty ? nil : value
            }
        }
        return nil
    }
}
