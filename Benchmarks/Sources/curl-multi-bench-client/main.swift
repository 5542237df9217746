// curl-multi-bench-client: a bare libcurl multi loop, the most Gannet's engine could keep.
// No task objects, no header parsing, no thread hops: easy handles re-added to one multi
// handle as they finish. `--new-connections` sends `Connection: close` over HTTP/1.1,
// `--no-session-cache` turns off TLS session resumption, `--pin` sets curl's own
// CURLOPT_PINNEDPUBLICKEY from BENCH_PIN_SPKI (`sha256//BASE64`). BENCH_CURL_BUFFER_SIZE sets
// CURLOPT_BUFFERSIZE (libcurl's default is 16 KiB; the curl tool uses 100 KiB).
import BenchKit
import CCurlBench
import Foundation

let invocation = Invocation.parse(supportedFlags: ["new-connections", "no-session-cache", "pin"])
curl_global_init(Int(CURL_GLOBAL_ALL))

switch invocation.mode {
case .get: CurlGet(invocation: invocation).run()
case .download: CurlDownload(invocation: invocation).run()
case .upload: CurlUpload(invocation: invocation).run()
}
