import Foundation
import GannetTestSupport
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Gannet writes the `Accept-Encoding` line libcurl would write (CurlGlobal.contentCodings
/// says why): the same codings, once, never beside a caller's own, never when the session does
/// not decompress; and libcurl still decodes what comes back.
@Suite struct AcceptEncodingTests {
    let servers: TestServers
    init() throws { servers = try TestServers.shared() }

    private func fields(_ pairs: [(String, String)]) -> [HTTPField] {
        pairs.map { HTTPField(name: $0.0, value: $0.1) }
    }

    // MARK: The list libcurl is given

    /// The origin's header lines for a GET with `pairs` as its fields, offering `offer`.
    private func lines(_ pairs: [(String, String)], offering offer: String?) -> [String] {
        var sent = fields(pairs)
        return HopOptions.setBodyAndHeaders(
            EasyHandle(),
            method: "GET",
            source: nil,
            fields: &sent,
            acceptEncodingLine: offer.map(CurlGlobal.acceptEncodingLine(offering:))
        )
        .headers.lines
    }

    @Test func theOfferIsTheFirstLineUnlessTheCallerHasOne() {
        #expect(
            lines([("X-A", "1")], offering: "deflate, gzip") == ["Accept-Encoding: deflate, gzip", "X-A: 1"]
        )
        #expect(
            lines([("accept-encoding", "br")], offering: "deflate, gzip") == ["accept-encoding: br"],
            "the caller's line alone"
        )
        #expect(lines([], offering: nil) == [])
        #expect(lines([], offering: "") == [], "a libcurl without decoders offers nothing")
    }

    // MARK: What the server sees

    /// The codings offered are those `curl --compressed` (the same libcurl) offers, and a gzip
    /// body sent back is decoded.
    @Test func theOfferIsLibcurlsOwnAndTheAnswerIsDecoded() async throws {
        let codings = CurlGlobal.contentCodings
        #expect(codings.contains("gzip") && codings.contains("deflate"), "\(codings)")
        let manager = testManager(servers)
        defer { manager.invalidateAndCancel() }
        let response = await perform(manager, URLRequest(url: servers.httpbin.adding("/gzip")))
        let body = try json(response.data)
        #expect(body["gzipped"] as? Bool == true, "the gzip body was not decoded")
        let headers = try #require(body["headers"] as? [String: String])
        #expect(headers["Accept-Encoding"] == codings)
        #expect(try await curlOffer() == codings)
    }

    @Test func aCallersOwnHeaderIsSentOnce() async throws {
        let manager = testManager(servers)
        defer { manager.invalidateAndCancel() }
        var request = URLRequest(url: servers.httpbin.adding("/gzip"))
        request.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
        let body = try json(await perform(manager, request).data)
        // A second line would reach httpbin joined to the first ("gzip, deflate, gzip, ...").
        #expect((body["headers"] as? [String: String])?["Accept-Encoding"] == "gzip")
        #expect(body["gzipped"] as? Bool == true)
    }

    @Test func nothingIsOfferedWhenTheSessionDoesNotDecompress() async throws {
        let manager = testManager(servers) { $0.decompressesResponses = false }
        defer { manager.invalidateAndCancel() }
        let response = await perform(manager, URLRequest(url: servers.httpbin.adding("/headers")))
        let headers = try #require(try json(response.data)["headers"] as? [String: String])
        #expect(headers["Accept-Encoding"] == nil, "\(headers)")
    }

    /// The `Accept-Encoding` that `curl --compressed` sends to httpbin's `/headers`.
    private func curlOffer() async throws -> String? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") else {
            throw TestServerError("The curl tool is missing; run scripts/install-deps.sh")
        }
        let url = servers.httpbin.adding("/headers").absoluteString
        let output: Data = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                let process = ChildProcess()
                process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
                process.arguments = ["--silent", "--show-error", "--compressed", url]
                let out = Pipe()
                process.standardOutput = out
                do {
                    try process.run()
                    let data = out.fileHandleForReading.readDataToEndOfFile()
                    process.waitUntilExit()
                    continuation.resume(returning: data)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        return (try json(output)["headers"] as? [String: String])?["Accept-Encoding"]
    }
}
