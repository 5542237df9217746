import Foundation
import Synchronization

/// `echo_server.py` on 127.0.0.1, started once per test process. Its stdin is a pipe this
/// process holds: when the process ends, the pipe closes and the server exits with it.
final class EchoServer: Sendable {
    /// The server's base URL, `http://127.0.0.1:<port>`.
    let baseURL: URL
    private let process: Process
    private let stdin: Pipe

    private static let instance = Mutex<Result<EchoServer, any Error>?>(nil)

    /// The process's server, started on first use; a server that cannot start is a failure
    /// with its reason, never a skipped test.
    static func shared() throws -> EchoServer {
        try instance.withLock { instance in
            if let instance { return try instance.get() }
            let result = Result { try EchoServer() }
            instance = result
            return try result.get()
        }
    }

    private init() throws {
        guard let script = Bundle.module.url(forResource: "echo_server", withExtension: "py") else {
            throw ServerError("echo_server.py is missing from the test bundle")
        }
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path]
        stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        // The first line is `PORT=<n>`, written once the socket listens.
        var line = Data()
        while let byte = try stdout.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT="), let port = Int(text.dropFirst(5)) else {
            throw ServerError("echo_server.py did not start (printed \"\(text)\"); is python3 installed?")
        }
        baseURL = URL(string: "http://127.0.0.1:\(port)")!
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL { URL(string: baseURL.absoluteString + path)! }
}

struct ServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
