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

    /// A throttled multipart POST to the fault server's digest route, and the form it sends.
    func throttledUpload(bytes: Int, bytesPerHalfSecond: Int, servers: TestServers) throws -> (URLRequest, Int64) {
        let payload = Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        var form = MultipartFormData()
        try form.appendPart(data: payload, name: "file", fileName: "p.bin", mimeType: "application/octet-stream")
        form.throttleBandwidth(packetSize: bytesPerHalfSecond, delay: 0.5)
        let stream = form.makeInputStream()
        var request = URLRequest(url: servers.url(.uploadDigest))
        request.httpMethod = "POST"
        request.httpBodyStream = stream
        request.setValue("\(stream.contentLength)", forHTTPHeaderField: "Content-Length")
        request.setValue("multipart/form-data; boundary=\(form.boundary)", forHTTPHeaderField: "Content-Type")
        return (request, Int64(stream.contentLength))
    }

    @Test func aThrottledUploadArrivesWhole() async throws {
        let servers = try TestServers.shared()
        // 16 KiB at 16 KiB/s: about a second, paced by the engine.
        let (request, length) = try throttledUpload(bytes: 16 * 1024, bytesPerHalfSecond: 8 * 1024, servers: servers)
        let (data, response) = try await SessionManager().data(for: request)
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("\(length) "))
    }

    @Test func aThrottledUploadDoesNotHoldUpOtherTransfers() async throws {
        let servers = try TestServers.shared()
        // 2 MiB at 4 KiB/s: over eight minutes of upload, so it is still sending when the small
        // request ends however loaded the machine (a whole-process stall of 24 s was seen at the
        // start of a loaded run, longer than the 16 s upload this test used to send); it is then
        // cancelled. The small request finishing meanwhile shows the engine thread was free.
        let (request, _) = try throttledUpload(bytes: 2 << 20, bytesPerHalfSecond: 2 * 1024, servers: servers)
        let manager = SessionManager()
        let ended = Mutex<DataResponse<Data>?>(nil)
        let upload = manager.dataTask(with: request, serializer: .passthrough) { response in
            ended.withLock { $0 = response }
        }
        upload.resume()
        #expect(await eventually(within: 60) { upload.countOfBytesSent > 0 }, "the upload never started sending")
        let small = try await manager.data(for: URLRequest(url: servers.nginx.appendingPathComponent("small")))
        #expect(small.1.statusCode == 200)
        #expect(upload.state == .running)
        #expect(ended.withLock { $0 } == nil)
        upload.cancel()
        #expect(await eventually(within: 30) { ended.withLock { $0 } != nil })
        #expect((ended.withLock { $0 }?.error as? URLError)?.code == .cancelled)
    }
}
