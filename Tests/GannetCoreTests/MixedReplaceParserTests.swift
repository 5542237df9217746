import Foundation
import Testing

@testable import GannetCore

/// The part parser of `multipart/x-mixed-replace`, fed however the reads cut the body.
@Suite struct MixedReplaceParserTests {
    private struct Part: Equatable {
        var fields: [MixedReplaceParser.HeaderField]
        var body: [UInt8]
        var ended: Bool
    }

    /// Feeds `text` in pieces of `piece` bytes, then finishes; returns the parts seen.
    private func parts(_ text: String, piece: Int, limit: Int64 = 1 << 20) throws -> [Part] {
        var parser = MixedReplaceParser(boundary: "frame", maximumPartBytes: limit)
        var events: [MixedReplaceParser.Event] = []
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let slice = Array(bytes[offset..<min(offset + piece, bytes.count)])
            events += try slice.withUnsafeBytes { try parser.consume($0) }
            offset += piece
        }
        events += try parser.finish()
        var result: [Part] = []
        for event in events {
            switch event {
            case .partHead(let fields): result.append(Part(fields: fields, body: [], ended: false))
            case .partBody(let body): result[result.count - 1].body += body
            case .partEnd: result[result.count - 1].ended = true
            }
        }
        return result
    }

    private let stream =
        "preamble\r\n--frame\r\nX-Part: 0\r\n\r\nfirst\r\n--frame  \r\nX-Part: 1\r\nContent-Type: text/plain\r\n\r\nsecond\r\nline\r\n--frame--\r\nepilogue --frame\r\n"

    @Test(arguments: [1, 2, 3, 7, 16, 1000])
    func boundariesSplitAcrossReadsGiveTheSameParts(piece: Int) throws {
        let seen = try parts(stream, piece: piece)
        let bodies = seen.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(seen.count == 2)
        #expect(seen.first?.fields == [.init(name: "X-Part", value: "0")])
        #expect(bodies == ["first", "second\r\nline"])
        #expect(seen.last?.fields.count == 2)
        #expect(seen.allSatisfy { $0.ended })
    }

    @Test func aBoundaryOnTheFirstLineNeedsNoPreamble() throws {
        let seen = try parts("--frame\r\n\r\nbody\r\n--frame--", piece: 4)
        #expect(seen == [Part(fields: [], body: Array("body".utf8), ended: true)])
    }

    @Test func aMissingFinalBoundaryEndsTheLastPartAtTheEnd() throws {
        let seen = try parts("--frame\r\nX-Part: 0\r\n\r\nzero\r\n--frame\r\nX-Part: 1\r\n\r\ntrailing bytes", piece: 5)
        let bodies = seen.map { String(decoding: $0.body, as: UTF8.self) }
        #expect(bodies == ["zero", "trailing bytes"])
        #expect(seen.last?.ended == true)
    }

    @Test func theEpilogueIsIgnored() throws {
        let seen = try parts("--frame\r\n\r\nx\r\n--frame--\r\n--frame\r\n\r\nnot a part", piece: 3)
        #expect(seen.count == 1)
    }

    @Test func aBodyWithoutAnyBoundaryHasNoParts() throws {
        #expect(try parts("just bytes, no parts", piece: 4).isEmpty)
    }

    @Test func aPartOverTheLimitThrowsBodyTooLarge() {
        #expect {
            _ = try parts(
                "--frame\r\n\r\n" + String(repeating: "a", count: 100) + "\r\n--frame--",
                piece: 10,
                limit: 50
            )
        } throws: { ($0 as? GannetError)?.code == .bodyTooLarge }
        // The limit is per part: many parts under it pass.
        let many = String(repeating: "--frame\r\n\r\n" + String(repeating: "b", count: 40) + "\r\n", count: 10)
        #expect((try? parts(many + "--frame--", piece: 7, limit: 50))?.count == 10)
    }

    @Test func aMalformedPartHeaderIsAProtocolViolation() {
        #expect {
            _ = try parts("--frame\r\nno colon here\r\n\r\nbody", piece: 100)
        } throws: { ($0 as? GannetError)?.code == .protocolViolation }
    }

    @Test func theBoundaryIsReadFromTheContentType() {
        #expect(MixedReplaceParser.boundary(contentType: "multipart/x-mixed-replace; boundary=abc") == "abc")
        #expect(MixedReplaceParser.boundary(contentType: "Multipart/X-Mixed-Replace;boundary=\"a b\"") == "a b")
        #expect(MixedReplaceParser.boundary(contentType: "multipart/x-mixed-replace") == nil)
        #expect(MixedReplaceParser.boundary(contentType: "multipart/form-data; boundary=abc") == nil)
        #expect(MixedReplaceParser.boundary(contentType: " \tmultipart/x-mixed-replace; boundary=ab") == "ab")
        #expect(MixedReplaceParser.boundary(contentType: "text/plain; boundary=abc") == nil)
        #expect(MixedReplaceParser.boundary(contentType: "multipart") == nil)
        #expect(MixedReplaceParser.boundary(contentType: "") == nil)
    }
}
