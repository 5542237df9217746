import BenchKit
import Gannet

/// N GETs with C in flight through `HTTPSessionManager`, AFNetworking's defaults: the JSON
/// response serializer (HTTP validation, then `JSONSerialization`) and the task notifications
/// on; each success block starts the next request.
struct SessionManagerWorkload: Sendable {
    let invocation: Invocation
    let manager: HTTPSessionManager

    init(invocation: Invocation, configuration: SessionConfiguration) {
        self.invocation = invocation
        manager = HTTPSessionManager(configuration: configuration)
    }

    func run() -> Never {
        let counter = RequestCounter(total: invocation.requests)
        let start = Clock.now()
        for _ in 0..<invocation.concurrency { startNext(counter) }
        let errors = counter.wait()
        Report.requests(count: invocation.requests, errors: errors, nanoseconds: Clock.now() - start)
    }

    private func startNext(_ counter: RequestCounter) {
        guard counter.claim() else { return }
        _ = manager.GET(
            invocation.url.absoluteString,
            success: { _, object in
                counter.finish(ok: object != nil)
                startNext(counter)
            },
            failure: { _, _ in
                counter.finish(ok: false)
                startNext(counter)
            }
        )
    }
}
