// ahc-bench-client: async-http-client 1.37 on the shared contract. One HTTPClient on the
// NIO singleton event loop group; the HTTP/1.1 pool may open as many connections as GETs in
// flight (the default soft limit is 8). `--new-connections` sends `Connection: close` over
// HTTP/1.1. `--json` decodes each GET's body with Foundation's `JSONSerialization`, as
// `HTTPSessionManager`'s JSON serializer does, so the two compare like for like.
import AsyncHTTPClient
import BenchKit
import Foundation
import NIOCore
import NIOSSL

let invocation = Invocation.parse(supportedFlags: ["new-connections", "json"])

var configuration = HTTPClient.Configuration()
var tls = TLSConfiguration.makeClientConfiguration()
if let ca = invocation.caFile { tls.trustRoots = .file(ca) }
configuration.tlsConfiguration = tls
configuration.connectionPool = .init(
    idleTimeout: .seconds(60),
    concurrentHTTP1ConnectionsPerHostSoftLimit: max(invocation.concurrency, 8)
)
if invocation.has("new-connections") { configuration.httpVersion = .http1Only }
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

let outcome: Result<String, any Error>
do {
    switch invocation.mode {
    case .get: outcome = .success(try await AHCWorkloads.get(invocation, client: client))
    case .download: outcome = .success(try await AHCWorkloads.download(invocation, client: client))
    case .upload: outcome = .success(try await AHCWorkloads.upload(invocation, client: client))
    }
} catch {
    outcome = .failure(error)
}
_ = try? await client.shutdown().get()
switch outcome {
case .success(let line):
    print(line)
    exit(line.hasSuffix("errors=0") || !line.contains("errors=") ? 0 : 1)
case .failure(let error):
    Report.fail("\(error)")
}
