import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 12: `cancel(byProducingResumeData:)` and `downloadTask(withResumeData:)` against
/// nginx (strong ETags, `Range`, `If-Range`) and httpbin (a body that ignores `Range`): the
/// resumed file is byte-exact, only the rest is sent, and the three restart cases (a changed
/// validator, a `416`, a server ignoring the range) start the file again from zero.
@Suite("Resumable downloads", .serialized)
struct ResumableDownloadTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    final class Box<Value: Sendable>: Sendable {
        private let value: Mutex<Value>
        init(_ value: Value) { self.value = Mutex(value) }
        var current: Value { value.withLock { $0 } }
        func set(_ newValue: Value) { value.withLock { $0 = newValue } }
    }

    private func body(_ url: URL) async throws -> Data {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        return try #require(await manager.response(for: URLRequest(url: url), serializer: .passthrough).data)
    }

    /// Starts a download of `url` and cancels it for resume data once `after` bytes arrived
    /// (from the receive hook, on the engine thread, so the cut lands mid-body).
    private func cancelledDownload(_ url: URL, after bytes: Int, manager: SessionManager) async throws -> (Data?, Int) {
        let received = Box(0)
        let produced = Box<Data??>(nil)
        let done = Box(false)
        let cancelled = Box(false)
        manager.setDataTaskDidReceiveData { _, task, chunk in
            let total = received.current + chunk.count
            received.set(total)
            guard total >= bytes, !cancelled.current else { return }
            cancelled.set(true)
            task.cancel { data in produced.set(.some(data)) }
        }
        manager.downloadTask(with: URLRequest(url: url)) { response in
            #expect((response.error as? URLError)?.code == .cancelled, "\(String(describing: response.error))")
            done.set(true)
        }.resume()
        #expect(await eventually(within: 60) { done.current && produced.current != nil })
        manager.setDataTaskDidReceiveData(nil)
        return (produced.current ?? nil, received.current)
    }

    private func resume(
        _ data: Data,
        manager: SessionManager,
        to destination: URL
    ) async throws -> (response: DataResponse<URL>, offsets: [Int64], progress: Int64) {
        let offsets = Box<[Int64]>([])
        manager.setDownloadTaskDidResume { _, _, offset, _ in offsets.set(offsets.current + [offset]) }
        let result = Box<DataResponse<URL>?>(nil)
        let task = try manager.downloadTask(
            withResumeData: data,
            destination: { _, _ in destination },
            completionHandler: { response in result.set(response) }
        )
        task.resume()
        #expect(await eventually(within: 60) { result.current != nil })
        let response = try #require(result.current)
        return (response, offsets.current, task.countOfBytesReceived)
    }

    /// The engine's temporary download files now.
    static func temporaryDownloads() -> Set<String> {
        Set(
            ((try? FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)) ?? [])
                .filter { $0.hasPrefix("gannet-download-") }
        )
    }

    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("gannet-resumed-\(UUID()).bin")
    }

    /// A partial file as a cancelled download keeps it, `gannet-download-….tmp` and 0600:
    /// resume data naming any other file is refused (docs/auth-cookies-cache.md).
    private func partialFile(_ contents: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-download-\(UUID()).tmp")
        try contents.write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return url
    }

    @Test func aCancelledDownloadResumesByteExactAndFetchesOnlyTheRest() async throws {
        // 4 MiB of 10, the rest held until released (Tests/Servers/held_routes.py): the
        // cancellation at 3 MiB lands mid-body however fast the machine (nginx's 4 MiB/s bet
        // that it would), and the server counts what the continuation asks for.
        let held = try servers.heldBody(bytes: 10 << 20, prefix: 4 << 20)
        defer { try? FileManager.default.removeItem(at: held.file) }
        let url = servers.url(held.route)
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        let (produced, _) = try await cancelledDownload(url, after: 3 << 20, manager: manager)
        let data = try #require(produced, "no resume data for a body with a strong ETag")
        let fields = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(fields["version"] as? Int == 1)
        let offset = try #require(fields["offset"] as? Int)
        #expect(offset >= 3 << 20 && offset <= 4 << 20, "offset \(offset)")
        #expect((fields["etag"] as? String)?.isEmpty == false)
        let partial = try #require(fields["file"] as? String)
        #expect(FileManager.default.fileExists(atPath: partial), "the partial file was not kept")

        let destination = temporaryFile()
        defer { try? FileManager.default.removeItem(at: destination) }
        // A continuation from inside the prefix would be held again at 4 MiB.
        try await servers.releaseHeldFile(key: held.key)
        let (response, offsets, progress) = try await resume(data, manager: manager, to: destination)
        #expect(response.error == nil, "\(String(describing: response.error))")
        #expect(response.response?.statusCode == 206)
        #expect(offsets == [Int64(offset)])
        #expect(progress == 10 << 20)
        #expect(FileManager.default.contents(atPath: destination.path) == held.data)
        #expect(!FileManager.default.fileExists(atPath: partial))
        // The server sent the rest only: one 206 from the offset to the end.
        try await servers.waitForHeldFile(key: held.key, "the cancelled request's connection closed") {
            $0.requests.first?.aborted == true
        }
        let requests = try await servers.heldFileStats(key: held.key).requests
        #expect(requests.count == 2, "\(requests)")
        #expect(requests.last.map { [$0.status, $0.rangeStart, $0.sent] } == [206, offset, (10 << 20) - offset])
        #expect(requests.last?.completed == true)
    }

    /// The same with a gibibyte at full loopback speed, cancelled from the receive hook once
    /// half of it arrived; compared by SHA-256 (test.sh runs it alone, with the heavy tests).
    @Test func aGibibyteDownloadCancelledHalfwayResumesByteExact() async throws {
        let name = "gibibyte-\(UUID().uuidString).bin"
        let (source, digest) = try await LargeFile.random(size: 1 << 30, named: name, in: servers.filesDirectory)
        defer { try? FileManager.default.removeItem(at: source) }
        let marker = "resume-gib=\(UUID().uuidString)"
        let url = servers.nginx.adding("/files/\(name)?\(marker)")
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        let (produced, _) = try await cancelledDownload(url, after: 512 << 20, manager: manager)
        let data = try #require(produced, "no resume data for a body with a strong ETag")
        let fields = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let offset = try #require(fields["offset"] as? Int)
        #expect(offset >= 512 << 20 && offset < 1 << 30, "offset \(offset)")

        let destination = temporaryFile()
        defer { try? FileManager.default.removeItem(at: destination) }
        let (response, offsets, progress) = try await resume(data, manager: manager, to: destination)
        #expect(response.error == nil, "\(String(describing: response.error))")
        #expect(response.response?.statusCode == 206)
        #expect(offsets == [Int64(offset)])
        #expect(progress == 1 << 30)
        #expect(try await LargeFile.sha256(of: destination) == digest)
        let sent = try #require(servers.nginxBytesSent(containing: marker, status: 206))
        #expect(
            sent > (1 << 30) - offset && sent < (1 << 30) - offset + 2048,
            "\(sent) bytes for the rest after \(offset)"
        )
    }

    /// The three restarts, from resume data written as docs/auth-cookies-cache.md describes it.
    enum Restart: String, CaseIterable, Sendable {
        /// If-Range names another ETag: nginx answers 200 with the whole body.
        case changedValidator
        /// The kept part is longer than the file now: 416, retried without Range.
        case unsatisfiableRange
        /// httpbin's /bytes ignores Range and If-Range: 200.
        case rangeIgnored
    }

    @Test(arguments: Restart.allCases)
    func aResumeTheServerCannotHonourStartsAgainFromZero(restart: Restart) async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        let url: URL
        var kept = 1000
        switch restart {
        case .changedValidator: url = servers.nginx.adding("/files/1m.bin")
        case .unsatisfiableRange:
            url = servers.nginx.adding("/files/1m.bin")
            kept = 2 << 20
        case .rangeIgnored: url = servers.httpbin.adding("/bytes/65536?seed=7")
        }
        let partial = try partialFile(Data(repeating: 0x55, count: kept))
        var etag = "\"stale\""
        if restart == .unsatisfiableRange {
            let head = await manager.response(for: URLRequest(url: url), serializer: .passthrough)
            etag = try #require(head.response?.value(forHTTPHeaderField: "ETag"))
        }
        let data = try JSONSerialization.data(withJSONObject: [
            "version": 1, "url": url.absoluteString, "headers": [String: String](), "file": partial.path,
            "offset": kept, "etag": etag,
        ])
        let destination = temporaryFile()
        defer { try? FileManager.default.removeItem(at: destination) }
        let before = Self.temporaryDownloads()
        let (response, offsets, _) = try await resume(data, manager: manager, to: destination)
        #expect(response.error == nil, "\(String(describing: response.error))")
        #expect(response.response?.statusCode == 200)
        #expect(offsets == [0])
        #expect(FileManager.default.contents(atPath: destination.path) == (try await body(url)))
        // The partial file became the destination; a 416's own body left nothing behind.
        #expect(!FileManager.default.fileExists(atPath: partial.path))
        #expect(await eventually(within: 30) { Self.temporaryDownloads().subtracting(before).isEmpty })
    }

    @Test func resumeDataThatCannotResumeIsATypedError() throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        let partial = try partialFile(Data(count: 10))
        defer { try? FileManager.default.removeItem(at: partial) }
        func resumeData(_ fields: [String: Any]) throws -> Data {
            var base: [String: Any] = [
                "version": 1, "url": "http://127.0.0.1:1/x", "headers": [String: String](), "file": partial.path,
                "offset": 10, "etag": "\"e\"",
            ]
            base.merge(fields) { $1 }
            return try JSONSerialization.data(withJSONObject: base)
        }
        let cases: [(String, Data)] = [
            ("not JSON", Data("garbage".utf8)),
            ("another version", try resumeData(["version": 2])),
            ("not http", try resumeData(["url": "file:///etc/passwd"])),
            ("no validator", try resumeData(["etag": NSNull()])),
            ("file gone", try resumeData(["file": "/nonexistent/\(UUID())"])),
            ("file shorter", try resumeData(["offset": 11])),
        ]
        for (name, data) in cases {
            #expect(throws: GannetError.self, "\(name)") {
                _ = try manager.downloadTask(withResumeData: data) { _ in }
            }
            do {
                _ = try manager.downloadTask(withResumeData: data) { _ in }
            } catch {
                #expect(error.code == .invalidResumeData, "\(name)")
            }
        }
        #expect(manager.tasks.isEmpty)
    }

    /// httpbin's `/drip` sends no ETag and no Last-Modified: nothing to put in If-Range, so no
    /// resume data, and the partial file is deleted as for any cancellation.
    @Test func withoutAValidatorThereIsNoResumeData() async throws {
        let manager = SessionManager(configuration: .ephemeral)
        defer { manager.invalidateAndCancel() }
        let before = Self.temporaryDownloads()
        let (produced, received) = try await cancelledDownload(
            servers.httpbin.adding("/drip?numbytes=400&duration=4&delay=0"),
            after: 1,
            manager: manager
        )
        #expect(received >= 1)
        #expect(produced == nil)
        #expect(await eventually(within: 30) { Self.temporaryDownloads().subtracting(before).isEmpty })
    }
}
