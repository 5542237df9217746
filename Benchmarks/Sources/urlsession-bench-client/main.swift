// urlsession-bench-client: URLSession (FoundationNetworking) on the shared contract.
// URLSession on Linux cannot be pointed at a CA file (ENGINE-NOTES), so BENCH_CA_FILE is not
// read: over https it trusts the system bundle, which bench.py replaces with the test CA in a
// private mount namespace. No `--new-connections`: URLSession speaks HTTP/2 over TLS and
// cannot be held to HTTP/1.1, so `Connection: close` would not open new connections.
import BenchKit
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

let invocation = Invocation.parse()

let configuration = URLSessionConfiguration.default
configuration.urlCache = nil
configuration.httpMaximumConnectionsPerHost = max(invocation.concurrency, 6)
configuration.timeoutIntervalForRequest = 120

switch invocation.mode {
case .get: URLSessionGet(invocation: invocation, session: URLSession(configuration: configuration)).run()
case .download: URLSessionDownload(invocation: invocation, configuration: configuration).run()
case .upload: URLSessionUpload(invocation: invocation, configuration: configuration).run()
}
