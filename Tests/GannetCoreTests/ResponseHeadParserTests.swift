import Foundation
import Testing

@testable import GannetCore

/// Feeds a parser one line per call, CRLF included, as libcurl's header callback does.
private struct Feed {
    var parser: ResponseHeadParser

    init(_ change: (inout SessionConfiguration.Limits) -> Void = { _ in }) {
        var limits = SessionConfiguration.Limits()
        change(&limits)
        parser = ResponseHeadParser(limits: limits)
    }

    mutating func line(_ text: String) throws -> ResponseHeadParser.Event {
        try bytes(Array((text + "\r\n").utf8))
    }

    mutating func bytes(_ bytes: [UInt8]) throws -> ResponseHeadParser.Event {
        try bytes.withUnsafeBytes { try parser.consume($0) }
    }

    /// Feeds `lines` and the blank line that ends the block; returns the last event.
    mutating func block(_ lines: [String]) throws -> ResponseHeadParser.Event {
        for text in lines {
            let event = try line(text)
            guard event == .needMore else { return event }
        }
        return try line("")
    }

    /// The head of a block that must complete.
    mutating func head(_ lines: [String]) throws -> ResponseHead {
        let event = try block(lines)
        guard case .complete(let head) = event else {
            Issue.record("expected a complete head, got \(event)")
            throw CancellationError()
        }
        return head
    }
}

/// The code of the `GannetError` `body` throws, or `nil` when it does not throw one.
private func thrownCode(_ body: () throws -> Void) -> GannetError.Code? {
    do {
        try body()
        return nil
    } catch {
        return (error as? GannetError)?.code
    }
}

@Suite("ResponseHeadParser: status lines, fields, limits")
struct ResponseHeadParserTests {
    // MARK: Status lines

    @Test(arguments: [
        ("HTTP/1.1 200 OK", 200, "HTTP/1.1"),
        ("HTTP/2 204", 204, "HTTP/2"),
        ("HTTP/1.0 404 Not Found", 404, "HTTP/1.0"),
        ("HTTP/1.1 599 Anything at all", 599, "HTTP/1.1"),
        ("HTTP/1.1 200 ", 200, "HTTP/1.1"),
    ])
    func wellFormedStatusLines(line: String, status: Int, version: String) throws {
        var feed = Feed()
        let head = try feed.head([line, "Content-Length: 0"])
        #expect(head.statusCode == status)
        #expect(head.httpVersion == version)
    }

    @Test(arguments: [
        "HTTP/1.1 OK 200 Garbage",
        "HTTP/1.1 20 OK",
        "HTTP/1.1 2000 OK",
        "HTTP/1.1 099 Too low",
        "HTTP/1.1 2x0 OK",
        "HTTP/1.1 -20 OK",
        "HTTX/1.1 200 OK",
        "ICY 200 OK",
        "200 OK",
        "HTTP/1.1",
    ])
    func malformedStatusLinesAreProtocolViolations(line: String) {
        var feed = Feed()
        #expect(thrownCode { _ = try feed.line(line) } == .protocolViolation)
    }

    @Test func blankLineBeforeAnyStatusLineEndsNothing() throws {
        // libcurl delivers the terminating blank line again after an unpause.
        var feed = Feed()
        #expect(try feed.line("") == .needMore)
        let head = try feed.head(["HTTP/1.1 200 OK"])
        #expect(head.statusCode == 200)
    }

    // MARK: Fields

    @Test func fieldsKeepOrderAndNamesAndLoseOptionalWhitespace() throws {
        var feed = Feed()
        let head = try feed.head([
            "HTTP/1.1 200 OK", "X-First:  one \t", "x-second:two", "X-Empty:", "X-Text: caf\u{e9}",
        ])
        #expect(head.fields.map(\.name) == ["X-First", "x-second", "X-Empty", "X-Text"])
        #expect(head.fields.map(\.value) == ["one", "two", "", "caf\u{e9}"])
        #expect(head.value("X-SECOND") == "two")
        #expect(head.value("x-missing") == nil)
    }

    @Test func repeatedFieldsAreJoinedForHTTPURLResponse() throws {
        var feed = Feed()
        let head = try feed.head(["HTTP/1.1 200 OK", "Vary: Accept", "vary: Origin", "X-One: 1"])
        #expect(head.mergedFields == ["Vary": "Accept, Origin", "X-One": "1"])
    }

    @Test func obsoleteLineFoldingContinuesThePreviousValue() throws {
        var feed = Feed()
        let head = try feed.head(["HTTP/1.1 200 OK", "X-Folded: one", " two", "\tthree"])
        #expect(head.value("X-Folded") == "one two three")
    }

    /// Found by the response-head fuzz target (docs/reliability.md): a blank continuation
    /// left a trailing space, a continuation of an empty value a leading one, so the head did
    /// not survive being written out and parsed again.
    @Test(arguments: [
        (["X-Folded: one", " "], "one"),
        (["X-Folded: one", "\t \t", " two"], "one two"),
        (["X-Folded:", " two"], "two"),
        (["X-Folded:", " ", "\t"], ""),
    ])
    func blankContinuationsAddNoWhitespace(lines: [String], value: String) throws {
        var feed = Feed()
        let head = try feed.head(["HTTP/1.1 200 OK"] + lines)
        #expect(head.value("X-Folded") == value)
    }

    @Test func continuationBeforeAnyFieldIsAProtocolViolation() throws {
        var feed = Feed()
        _ = try feed.line("HTTP/1.1 200 OK")
        #expect(thrownCode { _ = try feed.line(" orphan") } == .protocolViolation)
    }

    @Test func lineWithoutColonIsAProtocolViolation() throws {
        var feed = Feed()
        _ = try feed.line("HTTP/1.1 200 OK")
        #expect(thrownCode { _ = try feed.line("NoColonHere") } == .protocolViolation)
    }

    @Test(arguments: ["X A: v", "X-A : v", ": v", "X\u{7f}A: v", "\u{c4}: v", "X(A): v", "X\u{1}: v"])
    func invalidFieldNamesAreProtocolViolations(line: String) throws {
        var feed = Feed()
        _ = try feed.line("HTTP/1.1 200 OK")
        #expect(thrownCode { _ = try feed.line(line) } == .protocolViolation)
    }

    /// A NUL or a bare CR anywhere in a field line, its first and last bytes included (the
    /// parser searches each line with `memchr`).
    @Test(arguments: [
        Array("X-Nul: a\u{0}b\r\n".utf8),
        Array("X-Nul\u{0}: ab\r\n".utf8),
        Array("\u{0}X-A: v\r\n".utf8),
        Array("X-A: v\u{0}\r\n".utf8),
        Array("\rX-A: v\r\n".utf8),
        Array("X-A: v\rw\r\n".utf8),
        Array("X-A\r: v\r\n".utf8),
    ])
    func nulOrBareCRInAFieldIsAProtocolViolation(bytes: [UInt8]) throws {
        var feed = Feed()
        _ = try feed.line("HTTP/1.1 200 OK")
        #expect(thrownCode { _ = try feed.bytes(bytes) } == .protocolViolation)
    }

    @Test func theFirstColonSplitsNameFromValue() throws {
        var feed = Feed()
        _ = try feed.line("HTTP/1.1 200 OK")
        let head = try feed.head(["X-Time: 12:30:45", "X-Empty:", "X-Colon::"])
        #expect(head.value("X-Time") == "12:30:45")
        #expect(head.value("X-Empty") == "")
        #expect(head.value("X-Colon") == ":")
    }

    @Test func nulInTheStatusLineIsAProtocolViolation() {
        var feed = Feed()
        #expect(thrownCode { _ = try feed.bytes(Array("HTTP/1.1 200 O\u{0}K\r\n".utf8)) } == .protocolViolation)
    }

    /// RFC 9112 §2.2: a recipient of a bare CR must treat the element as invalid or replace
    /// the CR with SP. libcurl splits lines at LF only, so a bare CR reaches the parser inside
    /// a value, and from there any app that copies the header onward.
    @Test func bareCarriageReturnInAValueIsRejectedOrReplaced() throws {
        var feed = Feed()
        _ = try feed.line("HTTP/1.1 200 OK")
        do {
            _ = try feed.line("X-Split: a\rInjected: yes")
            let head = try feed.head([])
            #expect(
                head.value("X-Split") == "a Injected: yes",
                "a bare CR was kept in the value: \(String(reflecting: head.value("X-Split")))"
            )
        } catch let error as GannetError {
            #expect(error.code == .protocolViolation)
        }
    }

    // MARK: Content-Length

    @Test func identicalRepeatedContentLengthsAreAccepted() throws {
        var feed = Feed()
        let head = try feed.head(["HTTP/1.1 200 OK", "Content-Length: 5", "content-length: 5"])
        #expect(head.expectedContentLength == 5)
    }

    @Test(arguments: [("Content-Length: 5", "Content-Length: 10"), ("Content-Length: 5", "content-LENGTH: 6")])
    func conflictingContentLengthsAreProtocolViolations(first: String, second: String) throws {
        var feed = Feed()
        _ = try feed.line("HTTP/1.1 200 OK")
        _ = try feed.line(first)
        #expect(thrownCode { _ = try feed.line(second) } == .protocolViolation)
    }

    /// A continuation line would make the value "5 10" for the caller while the conflicting-length
    /// check saw only "5", and libcurl frames the body by its own reading of the field.
    @Test(arguments: ["Content-Length: 5", "content-length:"])
    func aFoldedContentLengthIsAProtocolViolation(first: String) throws {
        var feed = Feed()
        _ = try feed.line("HTTP/1.1 200 OK")
        _ = try feed.line(first)
        #expect(thrownCode { _ = try feed.line(" 10") } == .protocolViolation)
    }

    @Test func aBlankContinuationOfContentLengthChangesNothing() throws {
        var feed = Feed()
        let head = try feed.head(["HTTP/1.1 200 OK", "Content-Length: 5", " "])
        #expect(head.expectedContentLength == 5)
    }

    @Test(arguments: [
        ("Content-Length: 1000", Int64(1000)),
        ("X-No-Length: 1", -1),
        ("Content-Length: abc", -1),
        ("Content-Length: 99999999999999999999", -1),
        ("Content-Length: -5", -1),
    ])
    func expectedContentLengthIsMinusOneWhenAbsentOrInvalid(field: String, expected: Int64) throws {
        var feed = Feed()
        let head = try feed.head(["HTTP/1.1 200 OK", field])
        #expect(head.expectedContentLength == expected)
    }

    // MARK: Limits

    @Test func headerLineCountLimitIsInclusive() throws {
        var atLimit = Feed { $0.maximumHeaderCount = 20 }
        let head = try atLimit.head(["HTTP/1.1 200 OK"] + (0..<20).map { "X-\($0): v" })
        #expect(head.fields.count == 20)

        var overLimit = Feed { $0.maximumHeaderCount = 20 }
        #expect(
            thrownCode { _ = try overLimit.block(["HTTP/1.1 200 OK"] + (0..<21).map { "X-\($0): v" }) }
                == .headersTooLarge
        )
    }

    @Test func headerByteLimitCountsEveryByteOfTheBlock() throws {
        // 17 bytes of status line, the field line, 2 bytes of blank line.
        let status = "HTTP/1.1 200 OK"
        func field(totalling bytes: Int) -> String { "X-Pad: " + String(repeating: "p", count: bytes - 9) }

        var atLimit = Feed { $0.maximumHeaderBytes = 100 }
        #expect(try atLimit.head([status, field(totalling: 81)]).statusCode == 200)

        var overLimit = Feed { $0.maximumHeaderBytes = 100 }
        #expect(thrownCode { _ = try overLimit.block([status, field(totalling: 82)]) } == .headersTooLarge)
    }

    @Test func oneHugeLineIsHeadersTooLarge() throws {
        var feed = Feed()
        _ = try feed.line("HTTP/1.1 200 OK")
        #expect(
            thrownCode { _ = try feed.line("X-Huge: " + String(repeating: "h", count: 1 << 20)) } == .headersTooLarge
        )
    }

    @Test func informationalBlocksAreSkippedAndTheirFieldsDropped() throws {
        var feed = Feed()
        #expect(try feed.block(["HTTP/1.1 100 Continue"]) == .informational(100))
        #expect(try feed.block(["HTTP/1.1 103 Early Hints", "Link: </style.css>; rel=preload"]) == .informational(103))
        let head = try feed.head(["HTTP/1.1 200 OK", "Content-Length: 2"])
        #expect(head.fields.map(\.name) == ["Content-Length"])
    }

    @Test func switchingProtocolsIsAFinalHead() throws {
        var feed = Feed()
        #expect(try feed.head(["HTTP/1.1 101 Switching Protocols", "Upgrade: websocket"]).statusCode == 101)
    }

    @Test func informationalFloodIsAProtocolViolationPastTheLimit() throws {
        var feed = Feed { $0.maximumInformationalResponses = 10 }
        for _ in 0..<10 {
            #expect(try feed.block(["HTTP/1.1 100 Continue"]) == .informational(100))
        }
        #expect(thrownCode { _ = try feed.block(["HTTP/1.1 100 Continue"]) } == .protocolViolation)
    }

    @Test func byteLimitAppliesToEachBlockOnItsOwn() throws {
        // Each 1xx block and the final head get the whole allowance; the count of 1xx blocks
        // bounds the total.
        var feed = Feed { $0.maximumHeaderBytes = 100 }
        let pad = "X-Pad: " + String(repeating: "p", count: 60)
        #expect(try feed.block(["HTTP/1.1 103 Early Hints", pad]) == .informational(103))
        #expect(try feed.head(["HTTP/1.1 200 OK", pad]).statusCode == 200)
    }
}
