import Gannet
internal import Synchronization

/// `--download` and `--output FILE`: the body is streamed to a temporary file by core's
/// download task and moved into place when complete, never held in memory. Heads go to
/// stderr, so stdout stays clean.
///
/// `--download` without `--output` names the file after `Content-Disposition`, else the URL's
/// last path component, never overwriting an existing file (`name-1.ext`, `name-2.ext`, as
/// httpie does), shows a progress bar at once and prints a summary; a response that is not
/// 2xx is not saved and exits with 3, 4 or 5. `--output` alone saves whatever body arrives
/// and exits as `--check-status` says.
struct DownloadCommand {
    let command: RequestCommand
    let session: SessionManager

    var terminal: Terminal { command.terminal }
    var options: Options { command.options }

    func run(_ request: URLRequest) async throws -> ExitStatus {
        let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let explicit = options.output.map { URL(fileURLWithPath: $0, relativeTo: directory).standardizedFileURL }
        let requireSuccess = options.download
        let bar = ProgressBar(terminal: terminal, label: "", delay: options.download ? 0 : 1)
        let started = Date()
        let requestURL = request.url
        var report: (@Sendable (Progress) -> Void)?
        if bar.isEnabled {
            report = { progress in bar.update(completed: progress.completedUnitCount, total: progress.totalUnitCount) }
        }
        let progressHandler = report
        let response = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DataResponse<URL>, Never>) in
                let task = session.downloadTask(
                    with: request,
                    destination: { temporary, response in
                        // A failed status in download mode is not saved: the temporary file stays
                        // where it is and is deleted below.
                        if requireSuccess, !(200..<300).contains(response.statusCode) { return temporary }
                        return explicit ?? Self.availableName(for: response, url: requestURL, in: directory)
                    },
                    progress: progressHandler
                ) { response in
                    continuation.resume(returning: response)
                }
                TaskRegistry.current.set(task)
                task.resume()
            }
        } onCancel: {
            TaskRegistry.current.cancel()
        }
        bar.finish()
        let file = try response.result.get()
        guard let httpResponse = response.response else { throw CLIError("the server sent no HTTP response") }
        if command.selection.responseHeaders || options.download {
            let palette = Palette(enabled: command.pretty.colors && terminal.stderrIsTerminal)
            terminal.err(MessageFormatter.responseHead(httpResponse, httpVersion: response.metrics?.httpVersion, palette: palette) + "\n")
        }
        if requireSuccess, !(200..<300).contains(httpResponse.statusCode) {
            try? FileManager.default.removeItem(at: file)
            terminal.err("gannet: error: HTTP \(httpResponse.statusCode) \(MessageFormatter.reasonPhrase(httpResponse.statusCode)); nothing was saved\n")
            let status = ExitStatus.checking(statusCode: httpResponse.statusCode)
            return status == .success ? .error : status
        }
        // The temporary file was created private (0600); a saved file gets the usual
        // permissions, as if the shell had created it.
        let mask = umask(0)
        umask(mask)
        try? FileManager.default.setAttributes([.posixPermissions: 0o666 & ~Int(mask)], ofItemAtPath: file.path)
        if options.download {
            let bytes = response.metrics?.countOfResponseBodyBytesReceived ?? 0
            let seconds = max(Date().timeIntervalSince(started), 0.001)
            terminal.err("Saved \(ByteCount.text(bytes)) to \"\(file.path)\" in \(String(format: "%.2f", seconds)) s (\(ByteCount.text(Int64(Double(bytes) / seconds)))/s)\n")
        }
        return command.finalStatus(httpResponse)
    }

    /// A file name in `directory` that does not exist yet, from the response's
    /// `Content-Disposition` filename or the URL's last path component.
    static func availableName(for response: HTTPURLResponse, url: URL?, in directory: URL) -> URL {
        var name = dispositionFileName(response.value(forHTTPHeaderField: "Content-Disposition"))
            ?? url?.lastPathComponent ?? ""
        // Never let a server choose a path: keep the last component, drop hidden-file dots.
        name = String(name.split(separator: "/").last ?? "")
        while name.hasPrefix(".") { name.removeFirst() }
        if name.isEmpty || name == "/" { name = "index" }
        let base = (name as NSString).deletingPathExtension
        let ext = (name as NSString).pathExtension
        var candidate = directory.appendingPathComponent(name)
        var counter = 1
        while FileManager.default.fileExists(atPath: candidate.path) {
            candidate = directory.appendingPathComponent("\(base)-\(counter)" + (ext.isEmpty ? "" : ".\(ext)"))
            counter += 1
        }
        return candidate
    }

    /// `filename` from `attachment; filename="report.pdf"` (RFC 6266), quoted or not.
    static func dispositionFileName(_ header: String?) -> String? {
        guard let header else { return nil }
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "filename" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value
        }
        return nil
    }
}

/// The one task a command runs, so a Swift cancellation (Ctrl-C) can reach it.
final class TaskRegistry: Sendable {
    static let current = TaskRegistry()
    private let task = Mutex<SessionTask?>(nil)
    private let cancelled = Mutex(false)

    func set(_ task: SessionTask) {
        self.task.withLock { $0 = task }
        if cancelled.withLock({ $0 }) { task.cancel() }
    }

    func cancel() {
        cancelled.withLock { $0 = true }
        task.withLock { $0 }?.cancel()
    }
}
