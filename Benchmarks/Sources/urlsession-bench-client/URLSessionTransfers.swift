import BenchKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Streams a body through the data delegate without keeping it.
final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked: URLSession calls the delegate on its own serial delegate queue; `count` and
    // `failure` are read after `done` was signalled from the last callback.
    var count: Int64 = 0
    var sent: Int64 = 0
    var failure: String?
    let output: OutputFile?
    let done = DispatchSemaphore(value: 0)

    init(output: OutputFile?) { self.output = output }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        count += Int64(data.count)
        output?.write(data)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        sent = totalBytesSent
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            failure = "\(error)"
        } else if (task.response as? HTTPURLResponse)?.statusCode != 200 {
            failure = "status \((task.response as? HTTPURLResponse)?.statusCode ?? 0)"
        }
        done.signal()
    }
}

struct URLSessionDownload {
    let invocation: Invocation
    let configuration: URLSessionConfiguration

    func run() -> Never {
        let delegate = StreamingDelegate(output: invocation.output.map(OutputFile.init(path:)))
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        let start = Clock.now()
        session.dataTask(with: invocation.url).resume()
        delegate.done.wait()
        let elapsed = Clock.now() - start
        if let failure = delegate.failure { Report.fail(failure) }
        Report.transfer(bytes: delegate.count, nanoseconds: elapsed)
    }
}

/// `uploadTask(with:fromFile:)` through the delegate, which also counts the bytes sent
/// (`countOfBytesSent` stays 0 on Linux).
struct URLSessionUpload {
    let invocation: Invocation
    let configuration: URLSessionConfiguration

    func run() -> Never {
        let path = invocation.file!
        let expected = fileSize(path)
        let delegate = StreamingDelegate(output: nil)
        let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
        var request = URLRequest(url: invocation.url)
        request.httpMethod = "POST"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let start = Clock.now()
        session.uploadTask(with: request, fromFile: URL(fileURLWithPath: path)).resume()
        delegate.done.wait()
        let elapsed = Clock.now() - start
        if let failure = delegate.failure { Report.fail(failure) }
        Report.transfer(bytes: delegate.sent, nanoseconds: elapsed, expected: expected)
    }
}
