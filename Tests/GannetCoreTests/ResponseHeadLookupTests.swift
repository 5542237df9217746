import Foundation
import Testing

@testable import GannetCore
@testable import GannetVocabulary

/// A head's fields are found by name in any ASCII case, and only by a name of the same letters:
/// the lookups every response makes (`Content-Length`, `Content-Type`, `Set-Cookie`, `Location`).
@Suite("ResponseHead: looking up a field by name")
struct ResponseHeadLookupTests {
    let head = ResponseHead(
        statusCode: 200,
        httpVersion: "HTTP/1.1",
        fields: [
            ("Content-Type", "text/plain"), ("content-length", "12"), ("X-[a]", "one"), ("Set-Cookie", "a=1"),
            ("set-cookie", "b=2"),
        ]
    )

    @Test func namesMatchInAnyASCIICase() {
        #expect(head.value("CONTENT-TYPE") == "text/plain")
        #expect(head.value("Content-Length") == "12")
        #expect(head.expectedContentLength == 12)
        #expect(head.value("set-COOKIE") == "a=1", "the first of repeated fields")
    }

    /// `[` and `{` differ by the case bit, as `A` and `a` do, but are not letters.
    @Test func onlyLettersFoldCase() {
        #expect(head.value("X-[a]") == "one")
        #expect(head.value("X-{a}") == nil)
        #expect(head.value("X-[A]") == "one")
        #expect(!ASCII.equalsIgnoringCase("@", "`"))
        #expect(!ASCII.equalsIgnoringCase("Content-Type", "Content-Typ"))
        #expect(head.value("Content-Typ") == nil)
        #expect(head.value("") == nil)
    }

    /// Names over 15 bytes live on the heap, shorter ones inline: both are compared in place,
    /// as are byte sequences that do not start at index 0.
    @Test func longShortAndSlicedNamesCompare() {
        #expect(ASCII.equalsIgnoringCase("Access-Control-Allow-Origin", "access-control-allow-ORIGIN"))
        #expect(!ASCII.equalsIgnoringCase("Access-Control-Allow-Origin", "Access-Control-Allow-Origim"))
        #expect(ASCII.equalsIgnoringCase(String("xx-Content-Type".dropFirst(3)), "CONTENT-type"))
        let etag = Array("xETag".utf8)
        #expect(ASCII.equalsIgnoringCase(etag[1...], Array("etag".utf8)[...]))
        #expect(!ASCII.equalsIgnoringCase(etag[...], Array("xetaG ".utf8)[...]))
    }

    /// A string bridged from `NSString` compares as a native one.
    @Test func bridgedStringsCompareTheSame() {
        let bridged = NSString(string: "content-TYPE").substring(from: 0)
        #expect(ASCII.equalsIgnoringCase(bridged, "Content-Type"))
        #expect(!ASCII.equalsIgnoringCase(bridged, "Content-Tape"))
        #expect(ASCII.equalsIgnoringCase("Gänse", "GÄNSE") == false, "only ASCII letters fold")
        #expect(ASCII.equalsIgnoringCase("Gänse", "gänse"))
    }
}

/// A head keeps its fields as bytes and makes a field's strings when it is read: what is read
/// back is what was sent, through every way of reading it.
@Suite("ResponseHead.Fields: bytes read back as fields")
struct ResponseHeadFieldsTests {
    private func parsed(_ lines: [String]) throws -> ResponseHead {
        var parser = ResponseHeadParser(limits: SessionConfiguration.Limits())
        for line in lines + [""] {
            let event = try Array((line + "\r\n").utf8).withUnsafeBytes { try parser.consume($0) }
            if case .complete(let head) = event { return head }
        }
        Issue.record("the head did not complete")
        throw CancellationError()
    }

    /// A folded field followed by others: the fold grows the value it continues, and the fields
    /// after it start where it ends.
    @Test func aFoldedValueDoesNotRunIntoTheNextField() throws {
        let head = try parsed(["HTTP/1.1 200 OK", "X-Folded: one", " two", "Set-Cookie: a=1", "X-Last: end"])
        #expect(head.fields.map(\.name) == ["X-Folded", "Set-Cookie", "X-Last"])
        #expect(head.fields.map(\.value) == ["one two", "a=1", "end"])
        #expect(head.fields.firstValue(named: "x-last") == "end")
    }

    /// Parsed from the wire or built from strings, the same fields are the same head.
    @Test func aParsedHeadEqualsTheHeadBuiltFromItsFields() throws {
        let head = try parsed(["HTTP/1.1 200 OK", "Vary: Accept", "vary:  Origin ", "X-Folded:", " two"])
        let built = ResponseHead(
            statusCode: 200,
            httpVersion: "HTTP/1.1",
            fields: [("Vary", "Accept"), ("vary", "Origin"), ("X-Folded", "two")],
            reasonPhrase: "OK"
        )
        #expect(head == built)
        #expect(head.fields != ResponseHead.Fields([("Vary", "Accept"), ("vary", "Origin"), ("X-Folded", "tw")]))
        #expect(head.fields != ResponseHead.Fields([("Vary", "Accept"), ("vary", "Origin")]))
        #expect(
            ResponseHead.Fields([("ab", "c")]) != ResponseHead.Fields([("a", "bc")]),
            "the same bytes split otherwise"
        )
    }

    /// Every value of a repeated name, in order; `contains` and the first value agree with them.
    @Test func repeatedNamesAreReadInOrder() {
        let fields = ResponseHead.Fields([
            ("Set-Cookie", "a=1"), ("X-Other", "x"), ("set-cookie", "b=2"), ("", "empty name"),
        ])
        #expect(fields.values(named: "SET-COOKIE") == ["a=1", "b=2"])
        #expect(fields.values(named: "Set-Cookie2") == [])
        #expect(fields.firstValue(named: "set-cookie") == "a=1")
        #expect(fields.joinedValue(named: "Set-Cookie") == "a=1, b=2", "joined as HTTPURLResponse joins them")
        #expect(fields.joinedValue(named: "X-OTHER") == "x")
        #expect(fields.joinedValue(named: "X-Missing") == nil)
        #expect(fields.contains(named: "x-other"))
        #expect(!fields.contains(named: "x-othe"))
        #expect(fields.firstValue(named: "") == "empty name")
        #expect(fields.name(at: 2, is: "Set-Cookie"))
        #expect(!fields.name(at: 1, is: "Set-Cookie"))
    }

    /// A byte that is not UTF-8 (obs-text) reads as U+FFFD wherever it is read, and a lookup
    /// by a name of other letters finds nothing.
    @Test func bytesThatAreNotUTF8ReadAsReplacementCharacters() throws {
        var parser = ResponseHeadParser(limits: SessionConfiguration.Limits())
        var head: ResponseHead?
        for line: [UInt8] in [Array("HTTP/1.1 200 OK".utf8), Array("X-Raw: a".utf8) + [0xFF] + Array("b".utf8), []] {
            if case .complete(let complete) = try (line + [0x0D, 0x0A]).withUnsafeBytes({ try parser.consume($0) }) {
                head = complete
            }
        }
        let fields = try #require(head).fields
        #expect(fields[0].value == "a\u{FFFD}b")
        #expect(fields.firstValue(named: "X-RAW") == "a\u{FFFD}b")
        #expect(try #require(head).mergedFields == ["X-Raw": "a\u{FFFD}b"])
        // Written out from its fields and parsed again, the head is the same head (the
        // response-head fuzz target's round trip): equality reads the fields as strings.
        let rewritten = try parsed(["HTTP/1.1 200 OK"] + fields.map { "\($0.name): \($0.value)" })
        #expect(rewritten == head)
    }
}
