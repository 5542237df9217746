import BenchKit
import GannetCore
import GannetRequestSerialization
import Synchronization

/// A large GET.
struct Download {
    let invocation: Invocation
    let configuration: SessionConfiguration

    /// Streamed and discarded: `bytes(for:)`, which never accumulates the body.
    func stream() async -> Never {
        let manager = SessionManager(configuration: configuration)
        let start = Clock.now()
        var count: Int64 = 0
        do {
            let (response, body) = try await manager.bytes(for: URLRequest(url: invocation.url))
            guard response.statusCode == 200 else { Report.fail("status \(response.statusCode)") }
            for try await chunk in body { count += Int64(chunk.count) }
        } catch {
            Report.fail("\(error)")
        }
        Report.transfer(bytes: count, nanoseconds: Clock.now() - start)
    }

    /// Into `--output`: a download task, which streams to a temporary file and moves it there.
    func toFile() -> Never {
        let manager = SessionManager(configuration: configuration)
        let target = URL(fileURLWithPath: invocation.output!)
        let done = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        let start = Clock.now()
        manager.downloadTask(with: URLRequest(url: invocation.url), destination: { _, _ in target }) { response in
            if let error = response.error {
                failure.withLock { $0 = "\(error)" }
            } else if response.statusCode != 200 {
                failure.withLock { $0 = "status \(response.statusCode ?? 0)" }
            }
            done.signal()
        }.resume()
        done.wait()
        let elapsed = Clock.now() - start
        if let message = failure.withLock({ $0 }) { Report.fail(message) }
        Report.transfer(bytes: fileSize(target.path), nanoseconds: elapsed)
    }
}

/// A file sent as a POST body: `uploadTask(with:fromFile:)`, which reads it as it is sent, or
/// with `--multipart` one file part of a multipart body streamed by GannetRequestSerialization.
struct Upload {
    let invocation: Invocation
    let configuration: SessionConfiguration

    func run() -> Never {
        let path = invocation.file!
        let fileBytes = fileSize(path)
        let manager = SessionManager(configuration: configuration)
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<(sent: Int64, failure: String?)>((0, nil))
        let handler: @Sendable (DataResponse<Data>) -> Void = { response in
            let sent = response.metrics?.countOfRequestBodyBytesSent ?? 0
            var failure: String? = nil
            if let error = response.error {
                failure = "\(error)"
            } else if response.statusCode != 200 {
                failure = "status \(response.statusCode ?? 0)"
            }
            outcome.withLock { $0 = (sent, failure) }
            done.signal()
        }
        let start = Clock.now()
        let task: SessionTask
        if invocation.has("multipart") {
            let request: URLRequest
            do {
                request = try HTTPRequestSerializer().multipartFormRequest(
                    method: "POST",
                    urlString: invocation.url.absoluteString
                ) { form in
                    try form.appendPart(
                        fileURL: URL(fileURLWithPath: path),
                        name: "file",
                        fileName: "upload.bin",
                        mimeType: "application/octet-stream"
                    )
                }
            } catch {
                Report.fail("cannot build the multipart request: \(error)")
            }
            task = manager.dataTask(
                with: request,
                serializer: PassthroughResponseSerializer(),
                completionHandler: handler
            )
        } else {
            var request = URLRequest(url: invocation.url)
            request.httpMethod = "POST"
            request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
            task = manager.uploadTask(
                with: request,
                fromFile: URL(fileURLWithPath: path),
                serializer: PassthroughResponseSerializer(),
                completionHandler: handler
            )
        }
        task.resume()
        done.wait()
        let elapsed = Clock.now() - start
        let (sent, failure) = outcome.withLock { $0 }
        if let failure { Report.fail(failure) }
        // A multipart body is the file plus the part's boundary and headers.
        if sent < fileBytes || (!invocation.has("multipart") && sent != fileBytes) {
            Report.fail("sent \(sent) bytes for a file of \(fileBytes)")
        }
        Report.transfer(bytes: sent, nanoseconds: elapsed)
    }
}
