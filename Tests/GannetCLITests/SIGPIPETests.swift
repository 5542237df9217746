import Foundation
import GannetTestSupport
import Testing

/// Issue 16, defect 5: libcurl's `CURLOPT_NOSIGNAL` also stops it ignoring SIGPIPE, so a peer
/// that resets the connection during a TLS upload must not kill a host process that keeps
/// SIGPIPE's default disposition. `gannet` is such a process (a closed stdout pipe ends it
/// through SIGPIPE, as for any Unix filter); it is started through Python, which puts SIGPIPE
/// back to its default before `exec`, so nothing the test runner ignores is inherited.
@Suite("SIGPIPE during a TLS upload")
struct SIGPIPETests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    private static var serversFolder: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Servers").path
    }

    @Test func aPeerResetDuringATLSUploadIsAnErrorNotADeadProcess() async throws {
        let python = ProcessInfo.processInfo.environment["GANNET_PYTHON"] ?? "python3"
        let leaf = servers.certificates.leaf(.good)
        let server = ChildProcess()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = [
            python, Self.serversFolder + "/tls_reset_server.py", leaf.chain ?? leaf.pem, leaf.privateKey,
        ]
        let serverOut = Pipe()
        server.standardOutput = serverOut
        let serverIn = Pipe()
        server.standardInput = serverIn
        try server.run()
        defer {
            server.terminate()
            try? serverIn.fileHandleForWriting.close()
        }
        let firstLine = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var line = Data()
                while let byte = try? serverOut.fileHandleForReading.read(upToCount: 1), let first = byte.first,
                    first != 10
                {
                    line.append(first)
                }
                continuation.resume(returning: String(decoding: line, as: UTF8.self))
            }
        }
        let port = try #require(Int(firstLine), "the reset server printed \(firstLine.debugDescription)")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "gannet-sigpipe-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let body = folder.appendingPathComponent("body.bin")
        try Data(count: 64 << 20).write(to: body)

        let gannet = try GannetBinary.location().path
        let wrapper =
            "import os, signal, sys; signal.signal(signal.SIGPIPE, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        child.arguments = [
            python, "-c", wrapper, gannet, "--cacert", servers.certificates.caBundle, "--multipart",
            "POST", "https://localhost:\(port)/upload", "file@\(body.path)",
        ]
        let stderr = Pipe()
        child.standardError = stderr
        child.standardOutput = FileHandle.nullDevice
        child.standardInput = FileHandle.nullDevice
        let exited = AsyncStream<Void>.makeStream()
        child.terminationHandler = { _ in exited.continuation.finish() }
        try child.run()
        let watchdog = Task {
            try await Task.sleep(for: .seconds(120))
            child.terminate()
        }
        let errorText = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    returning: String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                )
            }
        }
        for await _ in exited.stream {}
        watchdog.cancel()
        #expect(
            child.terminationReason == .exit,
            "gannet died of signal \(child.terminationStatus); stderr: \(errorText)"
        )
        #expect(child.terminationStatus != 0, "the upload cannot have succeeded")
        #expect(errorText.contains("gannet:"), "a reported error, got: \(errorText)")
    }
}
