import Foundation
import Testing

@testable import GannetCore

/// The WHATWG event-stream interpretation (HTML §9.2.6), fed however the reads cut the body.
@Suite struct EventStreamParserTests {
    /// Feeds `bytes` in pieces of `piece` bytes; returns every output.
    private func outputs(_ bytes: [UInt8], piece: Int, limit: Int = 1 << 20) throws -> [EventStreamParser.Output] {
        var parser = EventStreamParser(maximumEventBytes: limit)
        var result: [EventStreamParser.Output] = []
        var offset = 0
        while offset < bytes.count {
            result += try parser.consume(Data(bytes[offset..<min(offset + piece, bytes.count)]))
            offset += piece
        }
        parser.finish()
        return result
    }

    private func events(_ text: String, piece: Int = 1 << 20) throws -> [ServerSentEvent] {
        try outputs(Array(text.utf8), piece: piece).compactMap {
            if case .event(let event) = $0 { return event }
            return nil
        }
    }

    /// Every way to cut `bytes` in two reads gives the same outputs as one read.
    private func expectSameForEverySplit(_ bytes: [UInt8]) throws {
        let whole = try outputs(bytes, piece: bytes.count)
        for cut in 0...bytes.count {
            var parser = EventStreamParser()
            var seen = try parser.consume(Data(bytes[..<cut]))
            seen += try parser.consume(Data(bytes[cut...]))
            #expect(seen == whole, "cut at \(cut)")
        }
    }

    private let sample =
        "\u{FEFF}: a comment\r\nevent: update\r\nid: 7\r\ndata: first\r\ndata:second\r\n\r\ndata: plain\n\nretry: 2500\rdata: cr\r\r"

    @Test func theWHATWGExampleFieldsAndLineEnds() throws {
        let seen = try outputs(Array(sample.utf8), piece: 1 << 20)
        #expect(
            seen == [
                .event(ServerSentEvent(type: "update", data: "first\nsecond", lastEventID: "7")),
                .event(ServerSentEvent(type: "message", data: "plain", lastEventID: "7")),
                .retry(milliseconds: 2500),
                .event(ServerSentEvent(type: "message", data: "cr", lastEventID: "7")),
            ]
        )
    }

    @Test(arguments: [1, 2, 3, 5, 7, 64])
    func readsOfAnySizeGiveTheSameOutputs(piece: Int) throws {
        #expect(try outputs(Array(sample.utf8), piece: piece) == outputs(Array(sample.utf8), piece: 1 << 20))
    }

    @Test func aFieldOrLineEndSplitAcrossAnyTwoReadsIsOneField() throws {
        try expectSameForEverySplit(Array(sample.utf8))
    }

    @Test func crAtTheEndOfOneReadAndLFAtTheStartOfTheNextAreOneLineEnd() throws {
        var parser = EventStreamParser()
        #expect(try parser.consume(Data("data: a\r".utf8)).isEmpty)
        // Were the LF a second line end, this would be the blank line that dispatches.
        #expect(try parser.consume(Data("\ndata: b\r".utf8)).isEmpty)
        #expect(try parser.consume(Data("\n\r\n".utf8)) == [.event(ServerSentEvent(data: "a\nb"))])
    }

    @Test func aBOMIsSkippedOnlyAtTheStartEvenWhenSplit() throws {
        var parser = EventStreamParser()
        #expect(try parser.consume(Data([0xEF])).isEmpty)
        #expect(try parser.consume(Data([0xBB])).isEmpty)
        #expect(try parser.consume(Data([0xBF] + Array("data: x\n\n".utf8))) == [.event(ServerSentEvent(data: "x"))])
        // A second BOM is part of the field name, which is then unknown and ignored.
        #expect(try events("\u{FEFF}\u{FEFF}data: y\n\ndata: z\n\n") == [ServerSentEvent(data: "z")])
        // Bytes that only start like a BOM are kept.
        #expect(try events("d") == [])
        #expect(try outputs([0xEF, 0x41] + Array("\ndata: q\n\n".utf8), piece: 1).count == 1)
    }

    @Test func fieldsWithoutColonSpaceOrValue() throws {
        // "data" alone is a data line with an empty value; one leading space only is removed.
        #expect(try events("data\n\n") == [ServerSentEvent(data: "")])
        #expect(try events("data:  two spaces\n\n") == [ServerSentEvent(data: " two spaces")])
        #expect(try events("data:a:b\n\n") == [ServerSentEvent(data: "a:b")])
        #expect(try events("data\ndata\n\n") == [ServerSentEvent(data: "\n")])
    }

    @Test func anEventWithoutDataIsNotDispatchedButItsIDIsKept() throws {
        #expect(
            try events("event: ping\nid: 3\n\ndata: after\n\n") == [ServerSentEvent(data: "after", lastEventID: "3")]
        )
        var parser = EventStreamParser()
        _ = try parser.consume(Data("id: 9\n\n".utf8))
        #expect(parser.lastEventID == "9")
    }

    @Test func anIDWithNULIsIgnoredAndAnEmptyIDResetsIt() throws {
        #expect(
            try events("id: 1\ndata: a\n\nid: 2\u{0}x\ndata: b\n\nid\ndata: c\n\n") == [
                ServerSentEvent(data: "a", lastEventID: "1"),
                ServerSentEvent(data: "b", lastEventID: "1"),
                ServerSentEvent(data: "c", lastEventID: ""),
            ]
        )
    }

    @Test func retryNeedsDigitsOnly() throws {
        let seen = try outputs(
            Array("retry: 10\nretry: 1x\nretry: -5\nretry:\nretry: 99999999999999999999999\n".utf8),
            piece: 3
        )
        #expect(seen == [.retry(milliseconds: 10), .retry(milliseconds: Int.max)])
    }

    @Test func commentsUnknownFieldsAndEventTypeReset() throws {
        #expect(
            try events(": keep-alive\nfoo: bar\nevent: a\ndata: 1\n\ndata: 2\n\n") == [
                ServerSentEvent(type: "a", data: "1"),
                ServerSentEvent(type: "message", data: "2"),
            ]
        )
    }

    @Test func anUnfinishedEventAtTheEndIsDiscarded() throws {
        #expect(try events("data: done\n\ndata: cut off\n") == [ServerSentEvent(data: "done")])
        #expect(try events("data: no line end") == [])
    }

    @Test func invalidUTF8IsReplacedNotFatal() throws {
        let seen = try outputs(Array("data: ".utf8) + [0xFF, 0xC3] + Array("\n\n".utf8), piece: 1)
        #expect(seen == [.event(ServerSentEvent(data: "\u{FFFD}\u{FFFD}"))])
    }

    @Test func aLineThatNeverEndsThrowsLineTooLongAtTheLimit() throws {
        var parser = EventStreamParser(maximumEventBytes: 1000)
        let chunk = Data(repeating: UInt8(ascii: "a"), count: 100)
        var thrown: StreamingError?
        var fed = 0
        do {
            while fed < 100_000 {
                _ = try parser.consume(chunk)
                fed += chunk.count
            }
        } catch let error as StreamingError {
            thrown = error
        }
        #expect(thrown?.code == .lineTooLong)
        #expect(fed <= 1000)
    }

    @Test func manyShortDataLinesThrowEventTooLarge() {
        #expect {
            _ = try outputs(Array(String(repeating: "data: 0123456789\n", count: 200).utf8), piece: 17, limit: 1000)
        } throws: { ($0 as? StreamingError)?.code == .eventTooLarge }
        // Under the limit, the same lines are one event.
        #expect(throws: Never.self) {
            _ = try outputs(
                Array((String(repeating: "data: 0123456789\n", count: 50) + "\n").utf8),
                piece: 17,
                limit: 1000
            )
        }
    }

    @Test func aReconnectedParserInheritsTheLastEventID() throws {
        var parser = EventStreamParser(lastEventID: "41")
        #expect(try parser.consume(Data("data: x\n\n".utf8)) == [.event(ServerSentEvent(data: "x", lastEventID: "41"))])
    }

    @Test func contentTypeCheck() {
        #expect(EventStreamParser.isEventStream(contentType: "text/event-stream"))
        #expect(EventStreamParser.isEventStream(contentType: "Text/Event-Stream; charset=utf-8"))
        #expect(!EventStreamParser.isEventStream(contentType: "text/plain"))
        #expect(!EventStreamParser.isEventStream(contentType: "text/event-streamx"))
        #expect(!EventStreamParser.isEventStream(contentType: nil))
    }
}
