import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `ResponseDisposition.becomeStream`: the rest of a data task's body read through a
/// `SessionStreamTask`, backpressured as `bytes(for:)` is.
@Suite("Data tasks that become streams", .serialized)
struct BecomeStreamTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    /// Starts a data task whose disposition is `.becomeStream` and returns the stream task the
    /// hook received, with the data task and what its completion handler later receives.
    private func streamTask(
        _ url: URL,
        deferred: Bool = false
    ) async throws -> (manager: SessionManager, data: SessionTask, stream: SessionStreamTask, completion: Completions) {
        let manager = SessionManager()
        if deferred {
            manager.setDataTaskDidReceiveResponse(deferred: { _, _, _, decide in
                DispatchQueue.global().async { decide(.becomeStream) }
            })
        } else {
            manager.setDataTaskDidReceiveResponse { _, _, _ in .becomeStream }
        }
        let completions = Completions()
        let (data, stream) = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<(SessionTask, SessionStreamTask), any Error>) in
            // Whichever comes first: the hook, or a completion that means it never will.
            let pending = Mutex<CheckedContinuation<(SessionTask, SessionStreamTask), any Error>?>(continuation)
            manager.setDataTaskDidBecomeStreamTask { _, dataTask, streamTask in
                pending.withLock { $0.take() }?.resume(returning: (dataTask, streamTask))
            }
            manager.dataTask(with: URLRequest(url: url), serializer: .passthrough) { response in
                completions.record(response)
                let error = response.error ?? GannetError(.protocolViolation, "completed without becoming a stream")
                pending.withLock { $0.take() }?.resume(throwing: error)
            }.resume()
        }
        return (manager, data, stream, completions)
    }

    final class Completions: Sendable {
        let responses = Mutex<[DataResponse<Data>]>([])
        func record(_ response: DataResponse<Data>) { responses.withLock { $0.append(response) } }
        var all: [DataResponse<Data>] { responses.withLock { $0 } }
    }

    /// Reads with `readData` until `limit` bytes or the end, checking each read's bounds.
    private func readAll(
        _ stream: SessionStreamTask,
        upTo limit: Int,
        maxLength: Int,
        keep: Bool
    ) async throws -> (Data, Int, Bool) {
        var total = 0
        var kept = Data()
        var ended = false
        while total < limit {
            let (data, atEOF) = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<(Data?, Bool), any Error>) in
                stream.readData(ofMinLength: maxLength / 2, maxLength: maxLength, timeout: 60) { data, atEOF, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        continuation.resume(returning: (data, atEOF))
                    }
                }
            }
            let count = data?.count ?? 0
            #expect(count <= maxLength)
            total += count
            if keep, let data { kept.append(data) }
            if atEOF {
                ended = true
                break
            }
        }
        return (kept, total, ended)
    }

    @Test func aHundredMegabytesAreReadInBoundedMemory() async throws {
        let (manager, dataTask, stream, completions) = try await streamTask(servers.fault.adding("/never-ends"))
        #expect(stream.task.kind == .stream)
        #expect(stream.task.taskIdentifier != dataTask.taskIdentifier)
        #expect(manager.tasks.map(\.taskIdentifier) == [stream.task.taskIdentifier])
        #expect(dataTask.state == .completed)
        let sampler = FaultsMemorySampler()
        let hundred = 100 << 20
        let (_, total, ended) = try await readAll(stream, upTo: hundred, maxLength: 256 << 10, keep: false)
        let growth = sampler.stop()
        #expect(total >= hundred)
        #expect(!ended)
        // Held back at the 1 MiB high-water mark: a body gathered in memory would show 100 MiB.
        #expect(growth < 32 << 20, "resident memory grew by \(growth >> 20) MiB")
        stream.task.cancel()
        _ = await eventually(within: 60) { !completions.all.isEmpty }
        #expect(completions.all.count == 1)
        #expect((completions.all.first?.error as? URLError)?.code == .cancelled)
    }

    @Test func readDataDeliversTheBodyExactlyWithinItsBounds() async throws {
        let (_, _, stream, completions) = try await streamTask(servers.nginx.adding("/files/1m.bin"), deferred: true)
        let (data, total, ended) = try await readAll(stream, upTo: .max, maxLength: 10_000, keep: true)
        #expect(ended)
        #expect(total == 1 << 20)
        let expected = try Data(contentsOf: URL(fileURLWithPath: servers.oneMegabyteFile))
        #expect(data == expected)
        _ = await eventually(within: 60) { !completions.all.isEmpty }
        #expect(completions.all.first?.error == nil)
        #expect(completions.all.first?.statusCode == 200)
    }

    @Test func chunksIterateTheRestOfTheBody() async throws {
        let (_, _, stream, _) = try await streamTask(servers.nginx.adding("/files/10m.bin"))
        var received = Data()
        for try await chunk in stream.chunks { received.append(chunk) }
        #expect(received == (try Data(contentsOf: URL(fileURLWithPath: servers.tenMegabyteFile))))
    }

    @Test func invalidBoundsFailTheRead() async throws {
        let (_, _, stream, _) = try await streamTask(servers.nginx.adding("/files/1m.bin"))
        let error = await withCheckedContinuation { (continuation: CheckedContinuation<(any Error)?, Never>) in
            stream.readData(ofMinLength: 10, maxLength: 5, timeout: 0) { _, _, error in
                continuation.resume(returning: error)
            }
        }
        #expect(gannetCode(error) == .invalidRequest)
        stream.task.cancel()
    }
}
