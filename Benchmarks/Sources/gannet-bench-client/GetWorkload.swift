import BenchKit
import GannetCore

/// N GETs with C in flight, each checked for status 200 as an app would.
struct GetWorkload: Sendable {
    let invocation: Invocation
    let manager: SessionManager
    let request: URLRequest

    init(invocation: Invocation, configuration: SessionConfiguration) {
        self.invocation = invocation
        manager = SessionManager(configuration: configuration)
        var request = URLRequest(url: invocation.url)
        if invocation.has("new-connections") {
            request.setValue("close", forHTTPHeaderField: "Connection")
        }
        self.request = request
    }

    /// AFNetworking style: each completion handler starts the next request.
    func runWithCompletionHandlers() -> Never {
        let counter = RequestCounter(total: invocation.requests)
        let start = Clock.now()
        for _ in 0..<invocation.concurrency { startNext(counter) }
        let errors = counter.wait()
        Report.requests(count: invocation.requests, errors: errors, nanoseconds: Clock.now() - start)
    }

    private func startNext(_ counter: RequestCounter) {
        guard counter.claim() else { return }
        manager.dataTask(with: request, serializer: PassthroughResponseSerializer()) { response in
            counter.finish(ok: response.error == nil && response.statusCode == 200)
            startNext(counter)
        }.resume()
    }

    /// async/await: C child tasks, each awaiting one request after another.
    func runAsync() async -> Never {
        let counter = RequestCounter(total: invocation.requests)
        let start = Clock.now()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<invocation.concurrency {
                group.addTask {
                    while counter.claim() {
                        let response = await manager.response(for: request, serializer: PassthroughResponseSerializer())
                        counter.finish(ok: response.error == nil && response.statusCode == 200)
                    }
                }
            }
        }
        let errors = counter.wait()
        Report.requests(count: invocation.requests, errors: errors, nanoseconds: Clock.now() - start)
    }
}
