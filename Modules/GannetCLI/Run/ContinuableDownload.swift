import Gannet
import Synchronization

/// `--continue` with `--output FILE`: httpie's resumable downloads, on core's resume data.
///
/// Interrupted (Ctrl-C), the download is cancelled with `cancel(byProducingResumeData:)`: the
/// partial file stays in the temporary folder and the resume data is written next to FILE as
/// `FILE.gannet-resume` (0600). The next run with `--continue` reads it and continues with
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
        if let data = FileManager.default.contents(atPath: record.path) {
            do {
                task = try session.downloadTask(
                    withResumeData: data,
                    destination: destination,
                    progress: progress,
                    completionHandler: complete
                )
                terminal.err("gannet: continuing the download into \(ControlEscaping.escaped(file.path))\n")
            } catch {
                terminal.err("gannet: warning: cannot continue (\(error.message)); downloading it all again\n")
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
                if let data, Self.write(data, to: record) {
                    terminal.err("\ngannet: kept the partial download; run the same command again to continue it\n")
                }
                kept.send(())
            }
        }
        if Task.isCancelled {
            await kept.value
        } else {
            try? FileManager.default.removeItem(at: record)
        }
        return response
    }

    /// Writes resume data readable by its owner only; `false` when it could not be written.
    static func write(_ data: Data, to url: URL) -> Bool {
        FileManager.default.createFile(atPath: url.path, contents: data, attributes: [.posixPermissions: 0o600])
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
