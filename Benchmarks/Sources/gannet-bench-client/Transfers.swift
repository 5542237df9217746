import BenchKit
import GannetCore
import Synchronization

/// Counts (and optionally writes) body bytes as they arrive, on the engine thread.
final class ByteSink: @unchecked Sendable {
    // @unchecked: only the engine thread calls `consume`, and `count` is read after the
    // completion handler ran, which happens after the last `consume`.
    private(set) var count: Int64 = 0
    private let output: OutputFile?

    init(output: String?) { self.output = output.map(OutputFile.init(path:)) }

    func consume(_ data: Data) {
        count += Int64(data.count)
        output?.write(data)
    }
}

/// A large GET. Gannet has no download task yet: a data task with a
/// `dataTaskDidReceiveData` hook streams the bytes, but the engine also keeps the whole body
/// in memory (Transfer.body), so the body limit is lifted for the run and peak memory grows
/// with the body. The figures show it.
struct Download {
    let invocation: Invocation
    let configuration: SessionConfiguration

    func run() -> Never {
        var configuration = configuration
        configuration.limits.maximumBodyBytes = .max
        let manager = SessionManager(configuration: configuration)
        let sink = ByteSink(output: invocation.output)
        manager.setDataTaskDidReceiveData { _, _, data in sink.consume(data) }
        let done = DispatchSemaphore(value: 0)
        let start = Clock.now()
        let failure = Mutex<String?>(nil)
        manager.dataTask(with: URLRequest(url: invocation.url), serializer: PassthroughResponseSerializer()) { response in
            if let error = response.error {
                failure.withLock { $0 = "\(error)" }
            } else if response.response?.statusCode != 200 {
                failure.withLock { $0 = "status \(response.response?.statusCode ?? 0)" }
            }
            done.signal()
        }.resume()
        done.wait()
        let elapsed = Clock.now() - start
        if let message = failure.withLock({ $0 }) { Report.fail(message) }
        Report.transfer(bytes: sink.count, nanoseconds: elapsed)
    }
}

/// A file sent as a POST body with `uploadTask(with:fromFile:)`, which reads it as it is sent.
struct Upload {
    let invocation: Invocation
    let configuration: SessionConfiguration

    func run() -> Never {
        let path = invocation.file!
        let expected = fileSize(path)
        let manager = SessionManager(configuration: configuration)
        var request = URLRequest(url: invocation.url)
        request.httpMethod = "POST"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let done = DispatchSemaphore(value: 0)
        let outcome = Mutex<(sent: Int64, failure: String?)>((0, nil))
        let start = Clock.now()
        manager.uploadTask(with: request, fromFile: URL(fileURLWithPath: path), serializer: PassthroughResponseSerializer()) { response in
            let sent = response.metrics?.countOfRequestBodyBytesSent ?? 0
            var failure: String? = nil
            if let error = response.error {
                failure = "\(error)"
            } else if response.response?.statusCode != 200 {
                failure = "status \(response.response?.statusCode ?? 0)"
            }
            outcome.withLock { $0 = (sent, failure) }
            done.signal()
        }.resume()
        done.wait()
        let elapsed = Clock.now() - start
        let (sent, failure) = outcome.withLock { $0 }
        if let failure { Report.fail(failure) }
        Report.transfer(bytes: sent, nanoseconds: elapsed, expected: expected)
    }
}
