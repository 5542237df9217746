import BenchKit
import CCurlBench
import Foundation

/// Body bytes received by one easy handle, written to `--output` when asked.
final class Sink {
    var count: Int64 = 0
    let output: OutputFile?

    init(output: OutputFile?) { self.output = output }
}

/// A C write callback: nonisolated, recovers its Sink through Unmanaged.
func sinkWrite(
    _ buffer: UnsafeMutablePointer<CChar>?,
    _ size: Int,
    _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    let length = size * count
    guard let context else { return length }
    let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
    sink.count += Int64(length)
    if let output = sink.output, let buffer { output.write(UnsafeRawBufferPointer(start: buffer, count: length)) }
    return length
}

/// Makes an easy handle for `invocation.url` with the options every mode shares.
func makeEasy(
    _ invocation: Invocation,
    sink: Sink,
    headers: UnsafeMutablePointer<curl_slist>?
) -> UnsafeMutableRawPointer {
    guard let easy = curl_easy_init() else { Report.fail("curl_easy_init failed") }
    _ = bench_setopt_string(easy, CURLOPT_URL, invocation.url.absoluteString)
    _ = bench_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
    _ = bench_setopt_write(easy, sinkWrite)
    _ = bench_setopt_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(sink).toOpaque())
    _ = bench_setopt_long(easy, CURLOPT_PIPEWAIT, 1)
    if let ca = invocation.caFile { _ = bench_setopt_string(easy, CURLOPT_CAINFO, ca) }
    if invocation.has("new-connections") {
        _ = bench_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_1_1))
    }
    if invocation.has("no-session-cache") { _ = bench_setopt_long(easy, CURLOPT_SSL_SESSIONID_CACHE, 0) }
    if invocation.has("pin") {
        guard let pin = ProcessInfo.processInfo.environment["BENCH_PIN_SPKI"] else {
            Report.fail("--pin needs BENCH_PIN_SPKI (sha256//BASE64 of the server's public key)")
        }
        _ = bench_setopt_string(easy, CURLOPT_PINNEDPUBLICKEY, pin)
    }
    if let size = ProcessInfo.processInfo.environment["BENCH_CURL_BUFFER_SIZE"].flatMap(Int.init) {
        _ = bench_setopt_long(easy, CURLOPT_BUFFERSIZE, size)
    }
    if let headers { _ = bench_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headers)) }
    return easy
}

func responseCode(_ easy: UnsafeMutableRawPointer) -> Int {
    var code = 0
    _ = bench_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
    return code
}

func headerList(_ lines: [String]) -> UnsafeMutablePointer<curl_slist>? {
    var list: UnsafeMutablePointer<curl_slist>? = nil
    for line in lines { list = curl_slist_append(list, line) }
    return list
}
