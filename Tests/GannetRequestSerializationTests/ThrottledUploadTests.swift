import Foundation
import GannetRequestSerialization
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("Throttled multipart uploads through the engine")
struct ThrottledUploadTests {
    @Test func throttleIsAnEngineRateNotASleep() throws {
        var form = MultipartFormData()
        form.throttleBandwidth(packetSize: 16 * 1024, delay: 0.5)
        #expect(form.makeInputStream().maximumBytesPerSecond.map { Int($0) } == 32_768)
        #expect(MultipartFormData().makeInputStream().maximumBytesPerSecond == nil)
    }

    @Test func throttledUploadArrivesWholeAndDoesNotHoldUpOtherTransfers() async throws {
        let servers = try TestServers.shared()
        let payload = Data((0..<64 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var form = MultipartFormData()
        try form.appendPart(data: payload, name: "file", fileName: "p.bin", mimeType: "application/octet-stream")
        // 64 KiB at 4 KiB/s: sixteen seconds of upload, the window in which a small request
        // must finish. Eight seconds was not enough once the suite shared both cores with
        // other builds (the small request's round trip took longer than the whole upload).
        form.throttleBandwidth(packetSize: 2 * 1024, delay: 0.5)
        let stream = form.makeInputStream()
        var request = URLRequest(url: servers.url(.uploadDigest))
        request.httpMethod = "POST"
        request.httpBodyStream = stream
        request.setValue("\(stream.contentLength)", forHTTPHeaderField: "Content-Length")
        request.setValue("multipart/form-data; boundary=\(form.boundary)", forHTTPHeaderField: "Content-Type")

        let manager = SessionManager()
        let order = Mutex<[String]>([])
        let upload = manager.dataTask(with: request, serializer: .passthrough) { response in
            order.withLock {
                $0.append(
                    "upload \(response.response?.statusCode ?? 0) \(response.data.map { String(decoding: $0, as: UTF8.self) } ?? "")"
                )
            }
        }
        upload.resume()
        try await Task.sleep(for: .milliseconds(200))
        let small = try await manager.data(for: URLRequest(url: servers.nginx.appendingPathComponent("small")))
        order.withLock { $0.append("small \(small.1.statusCode)") }
        // The small request finished while the throttled upload was still sending: the engine
        // thread was free.
        #expect(upload.state == .running)
        // The task is `.completed` before its completion handler has run on the completion
        // queue: wait for the handler's own event, not for the state.
        for _ in 0..<6000 where order.withLock({ $0.count }) < 2 { try await Task.sleep(for: .milliseconds(10)) }
        let events = order.withLock { $0 }
        #expect(events.first == "small 200")
        #expect(events.count == 2)
        #expect(events.last?.hasPrefix("upload 200 \(stream.contentLength) ") == true)
    }
}
