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
