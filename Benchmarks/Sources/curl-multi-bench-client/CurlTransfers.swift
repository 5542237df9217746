import BenchKit
import CCurlBench
import Foundation

/// One large GET with curl_easy_perform, the body counted (or written) and dropped.
struct CurlDownload {
    let invocation: Invocation

    func run() -> Never {
        let sink = Sink(output: invocation.output.map(OutputFile.init(path:)))
        let easy = makeEasy(invocation, sink: sink, headers: nil)
        let start = Clock.now()
        let code = curl_easy_perform(easy)
        let elapsed = Clock.now() - start
        guard code == CURLE_OK else { Report.fail(String(cString: curl_easy_strerror(code))) }
        guard responseCode(easy) == 200 else { Report.fail("status \(responseCode(easy))") }
        Report.transfer(bytes: sink.count, nanoseconds: elapsed)
    }
}

/// Reads the upload body from a descriptor straight into curl's buffer.
final class FileSource {
    let descriptor: Int32
    var sent: Int64 = 0

    init(path: String) {
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { Report.fail("cannot open \(path)") }
    }
}

func fileRead(
    _ buffer: UnsafeMutablePointer<CChar>?,
    _ size: Int,
    _ count: Int,
    _ context: UnsafeMutableRawPointer?
) -> Int {
    guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
    let source = Unmanaged<FileSource>.fromOpaque(context).takeUnretainedValue()
    let result = read(source.descriptor, buffer, size * count)
    if result < 0 { return Int(CURL_READFUNC_ABORT) }
    source.sent += Int64(result)
    return result
}

/// A file POSTed with a read callback; done when the response to the whole body arrived.
struct CurlUpload {
    let invocation: Invocation

    func run() -> Never {
        let path = invocation.file!
        let expected = fileSize(path)
        let source = FileSource(path: path)
        let headers = headerList(["Expect:", "Content-Type: application/octet-stream"])
        let sink = Sink(output: nil)
        let easy = makeEasy(invocation, sink: sink, headers: headers)
        _ = bench_setopt_long(easy, CURLOPT_POST, 1)
        _ = bench_setopt_read(easy, fileRead)
        _ = bench_setopt_pointer(easy, CURLOPT_READDATA, Unmanaged.passUnretained(source).toOpaque())
        _ = bench_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, Int(expected))
        let start = Clock.now()
        let code = withExtendedLifetime(sink) { curl_easy_perform(easy) }
        let elapsed = Clock.now() - start
        guard code == CURLE_OK else { Report.fail(String(cString: curl_easy_strerror(code))) }
        guard responseCode(easy) == 200 else { Report.fail("status \(responseCode(easy))") }
        Report.transfer(bytes: source.sent, nanoseconds: elapsed, expected: expected)
    }
}
