import AsyncHTTPClient
import BenchKit
import Foundation
import NIOCore

/// The three workloads; each returns the contract's output line.
enum AHCWorkloads {
    static func get(_ invocation: Invocation, client: HTTPClient) async throws -> String {
        var request = HTTPClientRequest(url: invocation.url.absoluteString)
        if invocation.has("new-connections") { request.headers.add(name: "Connection", value: "close") }
        let decodesJSON = invocation.has("json")
        let counter = RequestCounter(total: invocation.requests)
        let start = Clock.now()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<invocation.concurrency {
                group.addTask { [request] in
                    while counter.claim() {
                        do {
                            let response = try await client.execute(request, timeout: .seconds(60))
                            let body = try await response.body.collect(upTo: 1 << 20)
                            guard decodesJSON else {
                                counter.finish(ok: response.status == .ok)
                                continue
                            }
                            // Like for like with HTTPSessionManager's JSON serializer: the status
                            // judged, then the body decoded by Foundation into an object.
                            let object = try body.withUnsafeReadableBytes {
                                try JSONSerialization.jsonObject(with: Data($0), options: [.fragmentsAllowed])
                            }
                            counter.finish(ok: response.status == .ok && !(object is NSNull))
                        } catch {
                            counter.finish(ok: false)
                        }
                    }
                }
            }
        }
        let errors = counter.wait()
        let seconds = Double(Clock.now() - start) / 1e9
        return "requests_per_s=\(String(format: "%.1f", Double(invocation.requests) / seconds)) errors=\(errors)"
    }

    static func download(_ invocation: Invocation, client: HTTPClient) async throws -> String {
        let output = invocation.output.map(OutputFile.init(path:))
        let start = Clock.now()
        let response = try await client.execute(
            HTTPClientRequest(url: invocation.url.absoluteString),
            timeout: .seconds(600)
        )
        guard response.status == .ok else { throw BenchFailure("status \(response.status.code)") }
        var count: Int64 = 0
        for try await chunk in response.body {
            count += Int64(chunk.readableBytes)
            if let output { chunk.withUnsafeReadableBytes { output.write($0) } }
        }
        return line(bytes: count, start: start)
    }

    static func upload(_ invocation: Invocation, client: HTTPClient) async throws -> String {
        let path = invocation.file!
        let size = fileSize(path)
        let chunks = FileChunks(path: path)
        var request = HTTPClientRequest(url: invocation.url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.body = .stream(chunks, length: .known(size))
        let start = Clock.now()
        let response = try await client.execute(request, timeout: .seconds(600))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw BenchFailure("status \(response.status.code)") }
        return line(bytes: chunks.sent.value, start: start)
    }

    private static func line(bytes: Int64, start: UInt64) -> String {
        "bytes=\(bytes) seconds=\(String(format: "%.4f", Double(Clock.now() - start) / 1e9))"
    }
}

struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
