import BenchKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// N GETs with C in flight; each completion handler starts the next.
struct URLSessionGet: Sendable {
    let invocation: Invocation
    let session: URLSession

    func run() -> Never {
        let counter = RequestCounter(total: invocation.requests)
        let start = Clock.now()
        for _ in 0..<invocation.concurrency { startNext(counter) }
        let errors = counter.wait()
        Report.requests(count: invocation.requests, errors: errors, nanoseconds: Clock.now() - start)
    }

    private func startNext(_ counter: RequestCounter) {
        guard counter.claim() else { return }
        var request = URLRequest(url: invocation.url)
        if invocation.has("new-connections") { request.setValue("close", forHTTPHeaderField: "Connection") }
        session.dataTask(with: request) { _, response, error in
            counter.finish(ok: error == nil && (response as? HTTPURLResponse)?.statusCode == 200)
            startNext(counter)
        }.resume()
    }
}
