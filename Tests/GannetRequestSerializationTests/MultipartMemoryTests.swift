import Testing
@testable import GannetRequestSerialization

extension Tag {
    /// Tests that move a gigabyte or more; run them alone with `swift test --filter heavy`
    /// or skip them with `--skip heavy`.
    @Tag static var heavy: Self
}

/// The memory proof for the streamed multipart body: 1 GiB read through the `InputStream`
/// the engine reads, in constant memory.
@Suite("Multipart memory", .tags(.heavy))
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
        print("1 GiB multipart read: \(total) bytes, VmRSS baseline \(baseline / 1024) KiB, peak \(peak / 1024) KiB, growth \(growth / 1024) KiB")
        #expect(baseline > 0)
        #expect(UInt64(total) == form.contentLength)
        #expect(total > Self.gibibyte)
        #expect(tail.suffix(32) == Data("\r\n--Boundary+1111222233334444--\r\n".utf8).suffix(32))
        #expect(growth < Self.limit, "resident memory grew by \(growth) bytes")
        #expect(!FileDescriptors.isOpen(file.url))
    }
}
