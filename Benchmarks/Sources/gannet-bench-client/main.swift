// gannet-bench-client: Gannet's side of the benchmark contract (see Benchmarks/README.md).
// Completion handlers by default, `--async` for async/await; `--new-connections` sends
// `Connection: close` over HTTP/1.1 so every GET opens a new (TLS) connection, and `--pin`
// installs a pinning evaluator (DERPinEvaluator) in the handshake.
import BenchKit
import GannetCore

let invocation = Invocation.parse(supportedFlags: ["async", "new-connections", "pin"])

var configuration = SessionConfiguration.default
configuration.tls.caFile = invocation.caFile
if invocation.has("new-connections") {
    configuration.httpVersion = .http1_1
}
if invocation.has("pin") {
    configuration.tls.serverTrustEvaluator = DERPinEvaluator.fromEnvironment()
}

switch invocation.mode {
case .get:
    let workload = GetWorkload(invocation: invocation, configuration: configuration)
    if invocation.has("async") {
        await workload.runAsync()
    } else {
        workload.runWithCompletionHandlers()
    }
case .download:
    Download(invocation: invocation, configuration: configuration).run()
case .upload:
    Upload(invocation: invocation, configuration: configuration).run()
}
