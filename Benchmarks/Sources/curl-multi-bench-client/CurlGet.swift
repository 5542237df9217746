import BenchKit
import CCurlBench

/// N GETs, C easy handles in one multi handle, each re-added as soon as it finishes.
struct CurlGet {
    let invocation: Invocation

    func run() -> Never {
        guard let multi = curl_multi_init() else { Report.fail("curl_multi_init failed") }
        let headers = headerList(invocation.has("new-connections") ? ["Connection: close"] : [])
        let sink = Sink(output: nil)
        let handles = (0..<invocation.concurrency).map { _ in makeEasy(invocation, sink: sink, headers: headers) }
        var started = 0
        var finished = 0
        var errors = 0
        let start = Clock.now()
        for easy in handles {
            curl_multi_add_handle(multi, easy)
            started += 1
        }
        var running: Int32 = 0
        var left: Int32 = 0
        while finished < invocation.requests {
            curl_multi_perform(multi, &running)
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                if message.pointee.data.result != CURLE_OK || responseCode(easy) != 200 { errors += 1 }
                finished += 1
                curl_multi_remove_handle(multi, easy)
                if started < invocation.requests {
                    curl_multi_add_handle(multi, easy)
                    started += 1
                }
            }
            if finished < invocation.requests { curl_multi_poll(multi, nil, 0, 1000, nil) }
        }
        Report.requests(count: invocation.requests, errors: errors, nanoseconds: Clock.now() - start)
    }
}
