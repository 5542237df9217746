import Gannet
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `--continue` with `--output FILE`: httpie's resumable downloads, on core's resume data.
///
/// Interrupted (Ctrl-C), the download is cancelled with `cancel(byProducingResumeData:)`: the
/// partial file stays in the temporary folder and the resume data is written next to FILE as
/// `FILE.gannet-resume` (created new, 0600, replacing any record in one step; a link there is
/// refused: ``PrivateFile``). The next run with `--continue` reads it and continues with
/// `downloadTask(withResumeData:)` (`Range` and `If-Range`: only the rest is sent, or the whole
/// body again if the server's file changed), and removes it once the download ended. Resume
/// data that can no longer be used (its partial file is gone) starts the download again.
struct ContinuableDownload {
    let session: SessionManager
    let terminal: Terminal
    let file: URL

    var record: URL { URL(fileURLWithPath: file.path + ".gannet-resume") }

    func run(
        _ request: URLRequest,
        destination: @escaping @Sendable (URL, HTTPURLResponse) -> URL,
        progress: (@Sendable (Progress) -> Void)?
    ) async -> DataResponse<URL> {
        let finished = Signal<DataResponse<URL>>()
        let complete: @Sendable (DataResponse<URL>) -> Void = { finished.send($0) }
        var task: SessionTask?
        if let data = readRecord() {
            do {
                task = try session.downloadTask(
                    withResumeData: data,
                    destination: destination,
                    progress: progress,
                    completionHandler: complete
                )
                terminal.err("gannet: continuing the download into \(ControlEscaping.escaped(file.path))\n")
            } catch {
                terminal.err(
                    "gannet: warning: cannot continue (\(ControlEscaping.escaped(error.message))); downloading it all again\n"
                )
            }
        }
        let running =
            task
            ?? session.downloadTask(
                with: request,
                destination: destination,
                progress: progress,
                completionHandler: complete
            )
        let kept = Signal<Void>()
        let record = self.record
        let terminal = self.terminal
        let response = await withTaskCancellationHandler {
            running.resume()
            return await finished.value
        } onCancel: {
            running.cancel { data in
                if let data {
                    do throws(PrivateFileError) {
                        try PrivateFile.replace(record.path, with: data)
                        terminal.err("\ngannet: kept the partial download; run the same command again to continue it\n")
                    } catch {
                        terminal.err(
                            "\ngannet: warning: cannot keep the partial download (\(ControlEscaping.escaped(error.message)))\n"
                        )
                        // Without its record nothing can continue the partial file: not left behind.
                        Self.deletePartialFile(named: data)
                    }
                }
                kept.send(())
            }
        }
        if Task.isCancelled {
            await kept.value
        } else {
            // unlink, not removeItem: only the record's own name goes, never a folder there.
            unlink(record.path)
        }
        return response
    }

    /// Deletes the partial file that resume data, just produced by this process, names.
    static func deletePartialFile(named resumeData: Data) {
        let fields = (try? JSONSerialization.jsonObject(with: resumeData)) as? [String: Any]
        if let file = fields?["file"] as? String { unlink(file) }
    }

    /// The resume record, if there is one this user wrote: a record that is a link, someone
    /// else's, or writable by others is refused with a warning (it names the file the download
    /// continues, and core refuses any file but its own partial one too: docs/cli.md,
    /// "Downloads").
    func readRecord() -> Data? {
        do {
            return try PrivateFile.read(record.path, maximumBytes: 1 << 20)
        } catch {
            terminal.err(
                "gannet: warning: ignoring \(ControlEscaping.escaped(record.path)) (\(ControlEscaping.escaped(error.message))); downloading it all again\n"
            )
            return nil
        }
    }
}

/// One value, sent once from any thread and awaited once.
final class Signal<Value: Sendable>: Sendable {
    private struct State {
        var value: Value?
        var waiter: CheckedContinuation<Value, Never>?
    }

    // @unchecked: the continuation is only touched under the Mutex.
    private struct Box: @unchecked Sendable { var state = State() }
    private let box = Mutex(Box())

    func send(_ value: Value) {
        let waiter = box.withLock { box -> CheckedContinuation<Value, Never>? in
            guard box.state.value == nil else { return nil }
            box.state.value = value
            defer { box.state.waiter = nil }
            return box.state.waiter
        }
        waiter?.resume(returning: value)
    }

    var value: Value {
        get async {
            await withCheckedContinuation { continuation in
                let ready = box.withLock { box -> Value? in
                    if let value = box.state.value { return value }
                    box.state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
