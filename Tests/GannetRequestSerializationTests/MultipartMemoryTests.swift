import GannetTestSupport
import Synchronization
import Testing

@testable import GannetRequestSerialization

extension Tag {
    /// Tests that move a gigabyte or more (about 10 s together). `swift test` selects by name,
    /// not tag: run them alone with `swift test --filter MultipartMemoryTests`, leave them out
    /// with `--skip MultipartMemoryTests`.
    @Tag static var heavy: Self
}

/// The memory proof for the streamed multipart body: 1 GiB read through the `InputStream`
/// the engine reads, and uploaded by the engine to nginx, in constant memory. Serialized, so
/// that the two measurements do not count each other's buffers.
@Suite("Multipart memory", .tags(.heavy), .serialized)
struct MultipartMemoryTests {
    static let gibibyte: Int64 = 1 << 30
    static let limit: Int64 = 64 * 1024 * 1024

    @Test("A 1 GiB multipart body streams through MultipartBodyStream with resident memory growth under 64 MB")
    func oneGibibyteRead() throws {
        // Given a sparse 1 GiB file (no disk blocks, nothing in memory until read)
        let file = try TemporaryFile(sparseSize: Self.gibibyte, name: "one-gib.bin")
        var form = try MultipartFormData(boundary: "Boundary+1111222233334444")
        try form.appendPart(formData: Data("memory".utf8), name: "purpose")
        try form.appendPart(fileURL: file.url, name: "file")
        let stream = form.makeInputStream()
        let baseline = ResidentMemory.current()
        // When the body is read as the engine reads it, into a counting sink
        stream.open()
        let chunk = 64 * 1024
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { buffer.deallocate() }
        var total: Int64 = 0
        var peak = baseline
        var reads = 0
        var tail = Data()
        while stream.hasBytesAvailable {
            let count = stream.read(buffer, maxLength: chunk)
            try #require(count >= 0, "\(String(describing: stream.streamError))")
            if count == 0 { break }
            total += Int64(count)
            reads += 1
            if reads % 256 == 0 { peak = max(peak, ResidentMemory.current()) }
            if stream.streamStatus == .atEnd { tail = Data(bytes: buffer, count: count) }
        }
        peak = max(peak, ResidentMemory.current())
        stream.close()
        // Then
        let growth = peak - baseline
        print(
            "1 GiB multipart read: \(total) bytes, VmRSS baseline \(baseline / 1024) KiB, peak \(peak / 1024) KiB, growth \(growth / 1024) KiB"
        )
        #expect(baseline > 0)
        #expect(UInt64(total) == form.contentLength)
        #expect(total > Self.gibibyte)
        #expect(tail.suffix(32) == Data("\r\n--Boundary+1111222233334444--\r\n".utf8).suffix(32))
        #expect(growth < Self.limit, "resident memory grew by \(growth) bytes")
        #expect(!FileDescriptors.isOpen(file.url))
    }

    @Test("A 1 GiB multipart upload to nginx /upload with resident memory growth under 64 MB")
    func oneGibibyteUpload() async throws {
        // Given a sparse 1 GiB file in a multipart request
        let servers = try TestServers.shared()
        let file = try TemporaryFile(sparseSize: Self.gibibyte, name: "one-gib.bin")
        let id = UUID().uuidString
        let urlString = servers.nginx.appendingPathComponent("upload").absoluteString + "?id=\(id)"
        let request = try HTTPRequestSerializer().multipartFormRequest(
            method: "POST",
            urlString: urlString,
            parameters: ["purpose": "memory"]
        ) { form in
            try form.appendPart(fileURL: file.url, name: "file")
        }
        let declared = try #require(request.value(forHTTPHeaderField: "Content-Length").flatMap(Int64.init))
        let manager = SessionManager(configuration: .default)
        defer { manager.finishTasksAndInvalidate() }
        let sampler = ResidentMemorySampler()
        // When the engine sends it
        let (data, response) = try await manager.data(for: request)
        let (baseline, peak) = sampler.stop()
        // Then nginx read the whole body, and memory stayed flat
        let growth = peak - baseline
        print(
            "1 GiB multipart upload: \(declared) bytes, VmRSS baseline \(baseline / 1024) KiB, peak \(peak / 1024) KiB, growth \(growth / 1024) KiB"
        )
        #expect(response.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "ok")
        let line = try #require(await servers.accessLogLines(containing: "/upload?id=\(id)", atLeast: 1).first)
        // "port "request line" status request-length bytes-sent …": request-length counts the body.
        let fields = line.split(separator: "\"")[2].split(separator: " ")
        #expect((Int64(fields[1]) ?? 0) > declared, "\(line)")
        #expect(declared > Self.gibibyte)
        #expect(growth < Self.limit, "resident memory grew by \(growth) bytes")
        #expect(!FileDescriptors.isOpen(file.url))
    }
}

/// Samples `VmRSS` every 10 ms on its own thread until stopped.
final class ResidentMemorySampler: Sendable {
    private struct State {
        var running = true
        var baseline: Int64
        var peak: Int64
    }
    private let state: Mutex<State>
    private let done = DispatchSemaphore(value: 0)

    init() {
        let baseline = ResidentMemory.current()
        state = Mutex(State(baseline: baseline, peak: baseline))
        Thread.detachNewThread { [self] in
            while state.withLock({ $0.running }) {
                let now = ResidentMemory.current()
                state.withLock { $0.peak = max($0.peak, now) }
                Thread.sleep(forTimeInterval: 0.01)
            }
            done.signal()
        }
    }

    /// Stops sampling; returns the resident memory at the start and the highest sampled since.
    func stop() -> (baseline: Int64, peak: Int64) {
        state.withLock { $0.running = false }
        done.wait()
        return state.withLock { ($0.baseline, max($0.peak, ResidentMemory.current())) }
    }
}
