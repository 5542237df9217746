import Foundation
import GannetCore
import GannetTestSupport
import Synchronization
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A helper server in Tests/Servers, run by python3, that prints lines on stdout and stops
/// when its stdin closes.
final class LineServer: Sendable {
    private let process: ChildProcess
    private let input: Pipe
    private let lines = Lines()

    private final class Lines: Sendable {
        private let storage = Mutex<[String]>([])
        func append(_ line: String) { storage.withLock { $0.append(line) } }
        func line(_ index: Int) -> String? { storage.withLock { $0.count > index ? $0[index] : nil } }
    }

    init(script: String, arguments: [String]) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers")
        process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments =
            [
                ProcessInfo.processInfo.environment["GANNET_PYTHON"] ?? "python3",
                folder.appendingPathComponent(script).path,
            ] + arguments
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let lines = self.lines
        Thread {
            var line = Data()
            while let byte = try? output.fileHandleForReading.read(upToCount: 1), let first = byte.first {
                if first == 10 {
                    lines.append(String(decoding: line, as: UTF8.self))
                    line = Data()
                } else {
                    line.append(first)
                }
            }
        }.start()
    }

    /// Waits (120 s at most: on a loaded machine, sanitizers on, starting Python and its TLS
    /// context can take tens of seconds) for the `index`th line.
    func line(_ index: Int) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            if let line = lines.line(index) { return line }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw GannetError(.timedOut, "the helper server printed no line \(index)")
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
    }
}

/// Issue 16, defect 2: the handshake callbacks must not run again on a pooled connection, where
/// the transfer that opened it may be gone: Gannet refuses a TLS 1.2 renegotiation.
@Suite("TLS 1.2 renegotiation on a pooled connection")
struct TLSRenegotiationTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    @Test func aServerRequestedRenegotiationIsRefusedAndNoCallbackRunsAgain() async throws {
        let leaf = servers.certificates.leaf(.good)
        let server = try LineServer(
            script: "tls_renegotiating_server.py",
            arguments: [leaf.chain ?? leaf.pem, leaf.privateKey]
        )
        defer { server.stop() }
        let port = try #require(Int(try await server.line(0)))

        let manager = testManager(servers)
        let asked = CallCounter()
        manager.setServerTrustChallengeHandler { _, _, _ in
            asked.increment()
            return .useCredential
        }
        let first = await perform(manager, URLRequest(url: URL(string: "https://localhost:\(port)/one")!))
        #expect(first.response?.statusCode == 200, "\(String(describing: first.error))")
        // The second request reuses the connection; the server asks to renegotiate before it answers.
        let second = await perform(manager, URLRequest(url: URL(string: "https://localhost:\(port)/two")!))
        #expect(try await server.line(1) == "refused", "the client must refuse to renegotiate")
        // The server closes the connection whose renegotiation was refused, before any response
        // byte; libcurl retries such a request once on a new connection, whose handshake asks
        // the handler again.
        #expect(second.response?.statusCode == 200, "\(String(describing: second.error))")
        #expect(asked.value == 2)
    }
}
