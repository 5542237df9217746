import Foundation
import GannetCore
import GannetTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("SessionManager against httpbin and nginx")
struct SessionManagerTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    @Test func getWithQuery() async throws {
        let manager = SessionManager()
        let response = await perform(manager, URLRequest(url: servers.httpbin.adding("/get?page=2&q=caf%C3%A9")))
        #expect(response.error == nil)
        #expect(response.response?.statusCode == 200)
        let args = try json(response.data)["args"] as? [String: String]
        #expect(args == ["page": "2", "q": "café"])
    }

    @Test func postBodyFromMemory() async throws {
        var request = URLRequest(url: servers.httpbin.adding("/post"))
        request.httpMethod = "POST"
        request.httpBody = Data(#"{"name":"gannet"}"#.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let response = await perform(SessionManager(), request)
        let echoed = try json(response.data)
        #expect((echoed["json"] as? [String: String]) == ["name": "gannet"])
        #expect((echoed["headers"] as? [String: String])?["Content-Length"] == "17")
    }

    @Test func postBodyFromFile() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gannet-upload-\(UUID()).bin")
        let payload = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try payload.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        var request = URLRequest(url: servers.url(.uploadDigest))
        request.httpMethod = "POST"
        let manager = SessionManager()
        let response = await withCheckedContinuation { continuation in
            manager.uploadTask(with: request, fromFile: file, serializer: .passthrough) {
                continuation.resume(returning: $0)
            }.resume()
        }
        let body = String(decoding: try #require(response.data), as: UTF8.self)
        #expect(body.hasPrefix("300000 "))
        #expect(body.contains(sha256Hex(payload)))
    }

    @Test func postBodyFromStreamIsSentChunkedWhenLengthUnknown() async throws {
        let payload = Data(repeating: 0x61, count: 200_000)
        var request = URLRequest(url: servers.url(.echo))
        request.httpMethod = "PUT"
        request.httpBodyStream = InputStream(data: payload)
        let response = await perform(SessionManager(), request)
        let echo = String(decoding: try #require(response.data), as: UTF8.self)
        #expect(echo.hasPrefix("PUT /echo HTTP/1.1"))
        #expect(echo.lowercased().contains("transfer-encoding: chunked"))
        #expect(echo.contains("body-length: 200000"))
    }

    @Test func postBodyFromStreamUsesDeclaredLength() async throws {
        let payload = Data(repeating: 0x62, count: 12_345)
        var request = URLRequest(url: servers.url(.echo))
        request.httpMethod = "POST"
        request.httpBodyStream = InputStream(data: payload)
        request.setValue("12345", forHTTPHeaderField: "Content-Length")
        let response = await perform(SessionManager(), request)
        let echo = String(decoding: try #require(response.data), as: UTF8.self).lowercased()
        #expect(echo.contains("content-length: 12345"))
        #expect(!echo.contains("transfer-encoding"))
        #expect(echo.contains("body-length: 12345"))
    }

    @Test(arguments: [200, 204, 404, 500])
    func statusCodesAreDeliveredNotThrown(code: Int) async throws {
        let response = await perform(SessionManager(), URLRequest(url: servers.httpbin.adding("/status/\(code)")))
        #expect(response.error == nil)
        #expect(response.response?.statusCode == code)
        if code == 204 { #expect(response.data == Data()) }
    }

    @Test func responseHeadersArrive() async throws {
        let url = servers.httpbin.adding("/response-headers?X-Gannet=wings&X-Gannet-Other=2")
        let response = await perform(SessionManager(), URLRequest(url: url))
        let http = try #require(response.response)
        #expect(http.value(forHTTPHeaderField: "x-gannet") == "wings")
        #expect(http.value(forHTTPHeaderField: "X-Gannet-Other") == "2")
        #expect(http.mimeType == "application/json")
    }

    @Test(arguments: ["gzip", "deflate", "brotli"])
    func compressedBodiesAreDecoded(encoding: String) async throws {
        let response = await perform(SessionManager(), URLRequest(url: servers.httpbin.adding("/\(encoding)")))
        let body = try json(response.data)
        #expect(body[encoding == "brotli" ? "brotli" : (encoding == "gzip" ? "gzipped" : "deflated")] as? Bool == true)
    }

    @Test func tenMegabyteBodyArrivesIntact() async throws {
        let response = await perform(SessionManager(), URLRequest(url: servers.nginx.adding("/files/10m.bin")))
        let expected = try Data(contentsOf: URL(fileURLWithPath: servers.tenMegabyteFile))
        #expect(response.data?.count == 10 * 1024 * 1024)
        #expect(response.data == expected)
        #expect(response.metrics?.countOfResponseBodyBytesReceived == Int64(expected.count))
    }

    @Test func thousandRequestsAtConcurrencyFifty() async throws {
        var configuration = SessionConfiguration.default
        configuration.maximumConnectionsPerHost = 50
        let manager = SessionManager(configuration: configuration)
        let results = await withTaskGroup(of: (Int, Int, String?).self) { group in
            for worker in 0..<50 {
                group.addTask {
                    var good = 0
                    var bad = 0
                    var mismatch: String?
                    for index in stride(from: worker, to: 1000, by: 50) {
                        let response = await perform(
                            manager,
                            URLRequest(url: self.servers.nginx.adding("/echo?i=\(index)"))
                        )
                        let body = response.data.map { String(decoding: $0, as: UTF8.self) } ?? ""
                        if response.response?.statusCode == 200 && body == "GET /echo HTTP/1.1\n" {
                            good += 1
                        } else {
                            bad += 1
                            mismatch = body
                        }
                    }
                    return (good, bad, mismatch)
                }
            }
            var total = (0, 0, nil as String?)
            for await result in group { total = (total.0 + result.0, total.1 + result.1, total.2 ?? result.2) }
            return total
        }
        #expect(results.0 == 1000, "bad: \(results.1) e.g. \(results.2 ?? "")")
        let echoed = await servers.accessLogLines(containing: "/echo?i=", atLeast: 1000).count
        #expect(echoed >= 1000)
    }

    @Test func http2OverTLSToNginx() async throws {
        let manager = testManager(servers)
        let response = await perform(manager, URLRequest(url: servers.nginxTLS.adding("/echo")))
        #expect(response.error == nil)
        #expect(response.data.map { String(decoding: $0, as: UTF8.self) } == "GET /echo HTTP/2.0\n")
        #expect(response.metrics?.httpVersion == "HTTP/2")
    }

    @Test func http2RequestsShareOneConnection() async throws {
        let manager = testManager(servers)
        let marker = UUID().uuidString
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    _ = await perform(
                        manager,
                        URLRequest(url: self.servers.nginxTLS.adding("/echo?\(marker)=\(index)"))
                    )
                }
            }
        }
        let lines = await servers.accessLogLines(containing: marker, atLeast: 20)
        #expect(lines.count == 20)
        let connections = Set(lines.compactMap { $0.split(separator: " ").first { $0.hasPrefix("conn=") } })
        #expect(connections.count <= 2, "HTTP/2 should multiplex: \(connections)")
    }

    @Test func untrustedCertificateFailsWithCurlsVerificationByDefault() async throws {
        let response = await perform(SessionManager(), URLRequest(url: servers.nginxTLS.adding("/small")))
        let error = try #require(response.error as? URLError)
        #expect(error.code == .serverCertificateUntrusted || error.code == .secureConnectionFailed)
        #expect(gannetCode(error) == .transport)
    }

    @Test func requestTimeoutFailsWithTimedOut() async throws {
        // The fault server's /stall never answers: `.timedOut` is the only way this can end, and
        // no clock has to tell it from a slow answer on a loaded machine.
        var request = URLRequest(url: servers.url(.stall))
        request.timeoutInterval = 0.5
        let response = await perform(SessionManager(), request)
        #expect((response.error as? URLError)?.code == .timedOut)
    }

    @Test func connectionRefusedIsCannotConnectToHost() async throws {
        let response = await perform(SessionManager(), URLRequest(url: URL(string: "http://127.0.0.1:1/")!))
        let error = try #require(response.error as? URLError)
        #expect(error.code == .cannotConnectToHost)
        #expect(error.failingURL?.absoluteString == "http://127.0.0.1:1/")
    }
}

func sha256Hex(_ data: Data) -> String {
    // The fault server reports the SHA-256 of what it received; compute it with the openssl CLI
    // the test setup already needs, to avoid a crypto dependency in the test target.
    let process = ChildProcess()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["openssl", "dgst", "-sha256", "-r"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try? process.run()
    input.fileHandleForWriting.write(data)
    try? input.fileHandleForWriting.close()
    let result = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: result, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
}

@Suite("Reading the head without building HTTPURLResponse")
struct ResponseHeadAccessTests {
    @Test func statusCodeAndHeadersMatchTheHTTPURLResponse() async throws {
        let servers = try TestServers.shared()
        let url = servers.httpbin.adding("/response-headers?X-Gannet=one&X-Gannet=two&Content-Type=text/plain")
        let response = await perform(SessionManager(), URLRequest(url: url))
        #expect(response.statusCode == 200)
        #expect(response.headerValue("x-gannet") == "one, two")
        #expect(response.headerValue("X-Missing") == nil)
        #expect(response.statusCode == response.response?.statusCode)
        #expect(response.headerValue("X-GANNET") == response.response?.value(forHTTPHeaderField: "X-Gannet"))
    }
}
