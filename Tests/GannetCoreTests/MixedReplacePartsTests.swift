import Foundation
import Testing

@testable import GannetCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A mixed-replace body as the responses a data task reports, without a socket: which heads
/// announce parts, and what each part's head and bytes are.
@Suite struct MixedReplacePartsTests {
    private static let url = URL(string: "https://example.test/cam")!

    private func outer(_ contentType: String?) -> ResponseHead {
        ResponseHead(
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            fields: contentType.map { [(name: "Content-Type", value: $0)] } ?? [],
            reasonPhrase: "Fine"
        )
    }

    @Test func onlyAMixedReplaceHeadWithABoundaryIsSplit() {
        let url = Self.url
        #expect(
            MixedReplaceParts(outer("multipart/x-mixed-replace; boundary=frame"), url: url, maximumPartBytes: 64) != nil
        )
        #expect(MixedReplaceParts(outer("multipart/x-mixed-replace"), url: url, maximumPartBytes: 64) == nil)
        #expect(MixedReplaceParts(outer("multipart/mixed; boundary=frame"), url: url, maximumPartBytes: 64) == nil)
        #expect(MixedReplaceParts(outer(nil), url: url, maximumPartBytes: 64) == nil)
        // The bytes of the value are screened first: whitespace, case and short values.
        #expect(
            MixedReplaceParts(outer(" \tMultipart/X-Mixed-Replace;boundary=f"), url: url, maximumPartBytes: 64) != nil
        )
        for other in ["multipart", "multipart/", "multipar/x", "text/plain; boundary=f", "", " "] {
            #expect(MixedReplaceParts(outer(other), url: url, maximumPartBytes: 64) == nil, "\(other)")
        }
    }

    @Test func eachPartIsAResponseWithTheOuterStatusAndItsOwnFields() throws {
        var parts = try #require(
            MixedReplaceParts(outer("multipart/x-mixed-replace; boundary=frame"), url: Self.url, maximumPartBytes: 64)
        )
        let body = "--frame\r\nContent-Type: text/plain\r\n\r\none\r\n--frame\r\nX-Part: 2\r\n\r\ntwo"
        var events = try Array(body.utf8).withUnsafeBytes { try parts.consume($0) }
        events += try parts.finish()
        var heads: [ResponseHead] = []
        var bytes: [String] = []
        for event in events {
            switch event {
            case .part(let head, let response):
                heads.append(head)
                bytes.append("")
                #expect(response?.statusCode == 200)
                #expect(response?.url == Self.url)
            case .bytes(let chunk):
                bytes[bytes.count - 1] += String(decoding: chunk, as: UTF8.self)
            }
        }
        #expect(heads.map(\.statusCode) == [200, 200])
        #expect(heads.map(\.reasonPhrase) == ["Fine", "Fine"])
        #expect(heads.first?.value("Content-Type") == "text/plain")
        #expect(heads.last?.value("X-Part") == "2")
        #expect(bytes == ["one", "two"])
    }

    @Test func aPartOverTheLimitThrows() throws {
        var parts = try #require(
            MixedReplaceParts(outer("multipart/x-mixed-replace; boundary=frame"), url: Self.url, maximumPartBytes: 4)
        )
        let body = Array("--frame\r\n\r\n0123456789\r\n--frame--".utf8)
        #expect(throws: (any Error).self) {
            _ = try body.withUnsafeBytes { try parts.consume($0) } + parts.finish()
        }
    }
}
