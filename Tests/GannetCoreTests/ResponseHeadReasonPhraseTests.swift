import Foundation
import Testing

@testable import GannetCore

/// The parsed head keeps what `HTTPURLResponse` loses: the server's reason phrase and the
/// fields in wire order with repeated names apart, which `DataResponse` gives as
/// ``DataResponse/reasonPhrase`` and ``DataResponse/headerFields``.
@Suite("ResponseHead: reason phrase and raw fields")
struct ResponseHeadReasonPhraseTests {
    func head(_ lines: [String]) throws -> ResponseHead? {
        var parser = ResponseHeadParser(limits: SessionConfiguration.Limits())
        for line in lines + [""] {
            let event = try Array((line + "\r\n").utf8).withUnsafeBytes { try parser.consume($0) }
            if case .complete(let head) = event { return head }
        }
        return nil
    }

    @Test(arguments: [
        ("HTTP/1.1 200 OK", "OK"),
        ("HTTP/1.1 302 FOUND", "FOUND"),
        ("HTTP/1.0 404 Not Found", "Not Found"),
        ("HTTP/1.1 200 Fine \u{1B}[1m by me ", "Fine \u{1B}[1m by me"),
        ("HTTP/2 204", ""),
        ("HTTP/1.1 200 ", ""),
    ])
    func reasonPhraseAsSent(_ line: String, _ reason: String) throws {
        let parsed = try #require(try head([line, "Content-Length: 0"]))
        #expect(parsed.reasonPhrase == reason)
    }

    @Test func fieldsStayInWireOrderWithDuplicates() throws {
        let parsed = try #require(
            try head(["HTTP/1.1 200 OK", "Zeta: 1", "Set-Cookie: a=1", "Alpha: 2", "set-cookie: b=2"])
        )
        #expect(parsed.fields.map(\.name) == ["Zeta", "Set-Cookie", "Alpha", "set-cookie"])
        #expect(parsed.fields.map(\.value) == ["1", "a=1", "2", "b=2"])
        #expect(parsed.mergedFields["Set-Cookie"] == "a=1, b=2", "HTTPURLResponse's view merges them")
    }

    @Test func dataResponseCarriesTheHeadOfTheFinalResponse() {
        let head = ResponseHead(
            statusCode: 201,
            httpVersion: "HTTP/1.1",
            fields: [("B", "1"), ("A", "2")],
            reasonPhrase: "Made"
        )
        let url = URL(string: "http://example.com/")!
        let lazy = DataResponse<Data>(
            request: URLRequest(url: url),
            lazyResponse: LazyResponse(head: head, url: url),
            data: nil,
            metrics: nil,
            result: .success(Data())
        )
        #expect(lazy.responseHead == head)
        #expect(lazy.reasonPhrase == "Made")
        #expect(lazy.headerFields.map(\.name) == ["B", "A"], "wire order, not sorted")
        #expect(lazy.headerFields.map(\.value) == ["1", "2"])
        #expect(lazy.httpVersion == "HTTP/1.1")
        let prebuilt = HTTPURLResponse(
            url: url,
            statusCode: 201,
            httpVersion: "HTTP/1.1",
            headerFields: ["A": "2", "B": "1"]
        )!
        let hooked = DataResponse<Data>(
            request: nil,
            lazyResponse: LazyResponse(prebuilt: prebuilt, head: head),
            data: nil,
            metrics: nil,
            result: .success(Data())
        )
        #expect(hooked.responseHead == head, "kept when a hook built the HTTPURLResponse early")
        #expect(hooked.reasonPhrase == "Made")
        #expect(hooked.headerFields.map(\.name) == ["B", "A"])
        let byHand = DataResponse<Data>(
            request: nil,
            response: prebuilt,
            data: nil,
            metrics: nil,
            result: .success(Data())
        )
        #expect(byHand.responseHead == nil)
        #expect(byHand.reasonPhrase == nil, "HTTPURLResponse does not keep one")
        #expect(byHand.headerFields.map(\.name) == ["A", "B"], "sorted by name without the parsed head")
    }
}
