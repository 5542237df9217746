import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// AFNetworking created every task on one serial queue because iOS 8's NSURLSession could give
/// two tasks created at once the same identifier, and so one task's delegate another's
/// response. Here tasks are created from many threads at once and each must get its own.
@Suite("Concurrent tasks keep their own responses")
struct ConcurrentTokenTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    @Test func aThousandConcurrentTasksEachReceiveTheirOwnToken() async throws {
        let manager = SessionManager()
        defer { manager.finishTasksAndInvalidate() }
        let count = 1000
        let run = UUID().uuidString
        let mismatches = Mutex<[String]>([])
        let identifiers = Mutex<Set<Int>>([])
        let finished = Mutex(0)
        let echoURL = servers.url(.echo).absoluteString
        let allDone: Void = await withCheckedContinuation { continuation in
            // Created and resumed from the concurrent pool, many at the same instant; a Dispatch
            // thread, never the test's cooperative pool, waits for concurrentPerform.
            DispatchQueue.global().async {
                DispatchQueue.concurrentPerform(iterations: count) { index in
                    let token = "\(run)-\(index)"
                    var request = URLRequest(url: URL(string: echoURL + "?token=\(token)")!)
                    request.setValue(token, forHTTPHeaderField: "X-Token")
                    let task = manager.dataTask(with: request, serializer: .passthrough) { response in
                        let body = String(decoding: response.data ?? Data(), as: UTF8.self)
                        let ownLine = "GET /echo?token=\(token) HTTP/1.1\r\n"
                        let ownHeader = "X-Token: \(token)\r\n"
                        if response.error != nil || !body.hasPrefix(ownLine) || !body.contains(ownHeader) {
                            let got = body.split(separator: "\r\n").first.map(String.init) ?? "\(response.error!)"
                            mismatches.withLock { $0.append("\(token): \(got)") }
                        }
                        let done = finished.withLock { value -> Bool in
                            value += 1
                            return value == count
                        }
                        if done { continuation.resume() }
                    }
                    identifiers.withLock { _ = $0.insert(task.taskIdentifier) }
                    task.resume()
                }
            }
        }
        _ = allDone
        #expect(finished.withLock { $0 } == count)
        #expect(identifiers.withLock { $0.count } == count, "every task has its own identifier")
        let wrong = mismatches.withLock { $0 }
        #expect(wrong.isEmpty, "\(wrong.count) tasks got another's response or none, e.g. \(wrong.prefix(3))")
    }
}
