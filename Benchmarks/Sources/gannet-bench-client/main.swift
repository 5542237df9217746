// gannet-bench-client: Gannet's side of the benchmark contract (see Benchmarks/README.md).
// Completion handlers by default, `--async` for async/await; `--new-connections` sends
// `Connection: close` over HTTP/1.1 so every GET opens a new (TLS) connection; `--pin`
// verifies the chain against BENCH_CA_FILE and pins the server's key (BENCH_PIN_SPKI) with
// GannetSecurity's PublicKeysTrustEvaluator; `upload --multipart` sends the file as one part
// of a streamed multipart/form-data body (GannetRequestSerialization); `--no-notifications`
// turns off the per-task NotificationCenter posts (`postsTaskNotifications`);
// `--session-manager` sends the GETs through `HTTPSessionManager` with AFNetworking's defaults
// (JSON response serializer, notifications on).
import BenchKit
import GannetCore
import GannetSecurity

let invocation = Invocation.parse(
    supportedFlags: ["async", "new-connections", "pin", "multipart", "no-notifications", "session-manager"]
)

var configuration = SessionConfiguration.default
configuration.tls.caFile = invocation.caFile
if invocation.has("new-connections") {
    configuration.httpVersion = .http1_1
}
if invocation.has("no-notifications") {
    configuration.postsTaskNotifications = false
}
if invocation.has("pin") {
    configuration.tls.serverTrustEvaluator = pinningEvaluator()
}

switch invocation.mode {
case .get where invocation.has("session-manager"):
    SessionManagerWorkload(invocation: invocation, configuration: configuration).run()
case .get:
    let workload = GetWorkload(invocation: invocation, configuration: configuration)
    if invocation.has("async") {
        await workload.runAsync()
    } else {
        workload.runWithCompletionHandlers()
    }
case .download:
    let download = Download(invocation: invocation, configuration: configuration)
    if invocation.output == nil {
        await download.stream()
    } else {
        download.toFile()
    }
case .upload:
    Upload(invocation: invocation, configuration: configuration).run()
}

/// Chain verification against the benchmark CA plus the server's public-key pin, as an app
/// that pins would configure it.
func pinningEvaluator() -> PublicKeysTrustEvaluator {
    guard let ca = invocation.caFile, let pin = ProcessInfo.processInfo.environment["BENCH_PIN_SPKI"] else {
        Report.fail("--pin needs BENCH_CA_FILE and BENCH_PIN_SPKI (sha256//BASE64 of the server's public key)")
    }
    do {
        // curl writes `sha256//BASE64`, Gannet (like OkHttp) `sha256/BASE64`.
        let pins = try PinSet([pin.replacingOccurrences(of: "sha256//", with: "sha256/")])
        return PublicKeysTrustEvaluator(pins: pins, trustStore: try .caFile(ca))
    } catch {
        Report.fail("cannot build the pinning evaluator: \(error)")
    }
}
