import Foundation
import GannetHTTPTypes
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("HTTPTypes conversions")
struct HTTPTypesConversionTests {
    @Test func anHTTPRequestBecomesTheURLRequestThatSendsIt() throws {
        var request = HTTPRequest(method: .patch, url: URL(string: "https://api.example.com/v1/items/7?x=1")!)
        request.headerFields.append(HTTPField(name: .accept, value: "application/json"))
        request.headerFields.append(HTTPField(name: .accept, value: "text/plain"))
        request.headerFields.append(HTTPField(name: .cookie, value: "a=1"))
        request.headerFields.append(HTTPField(name: .cookie, value: "b=2"))

        let urlRequest = try URLRequest(request)

        #expect(urlRequest.httpMethod == "PATCH")
        #expect(urlRequest.url?.absoluteString == "https://api.example.com/v1/items/7?x=1")
        #expect(urlRequest.value(forHTTPHeaderField: "Accept") == "application/json, text/plain")
        #expect(urlRequest.value(forHTTPHeaderField: "Cookie") == "a=1; b=2")
    }

    @Test func anHTTPRequestWithoutAnAuthorityIsATypedError() {
        let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/relative")
        #expect {
            try URLRequest(request)
        } throws: { error in
            (error as? GannetError)?.code == .invalidRequest
        }
    }

    @Test func aURLRequestBecomesAnHTTPRequestWithItsFieldsInAStableOrder() throws {
        var urlRequest = URLRequest(url: URL(string: "http://127.0.0.1:8080/path?q=a%20b")!)
        urlRequest.httpMethod = "PUT"
        urlRequest.setValue("zeta", forHTTPHeaderField: "X-Zeta")
        urlRequest.setValue("alpha", forHTTPHeaderField: "X-Alpha")

        let request = try HTTPRequest(urlRequest)

        #expect(request.method == .put)
        #expect(request.scheme == "http")
        #expect(request.authority == "127.0.0.1:8080")
        #expect(request.path == "/path?q=a%20b")
        #expect(request.headerFields.map(\.name.rawName) == ["X-Alpha", "X-Zeta"])
        #expect(try URLRequest(request).value(forHTTPHeaderField: "x-zeta") == "zeta")
    }

    @Test func aURLRequestWithAMethodOrFieldNameThatIsNoTokenIsATypedError() {
        var badMethod = URLRequest(url: URL(string: "http://127.0.0.1/")!)
        badMethod.httpMethod = "GET /evil HTTP/1.1\r\n"
        #expect {
            try HTTPRequest(badMethod)
        } throws: { error in
            (error as? GannetError)?.code == .invalidRequest
        }

        var badName = URLRequest(url: URL(string: "http://127.0.0.1/")!)
        badName.setValue("x", forHTTPHeaderField: "Bad Name")
        #expect {
            try HTTPRequest(badName)
        } throws: { error in
            (error as? GannetError)?.code == .invalidHeader
        }
    }

    @Test func aStatusOutsideThreeDigitsIsATypedErrorNotATrap() throws {
        let url = URL(string: "http://127.0.0.1/")!
        let foundation = try #require(
            HTTPURLResponse(url: url, statusCode: 1000, httpVersion: "HTTP/1.1", headerFields: [:])
        )
        #expect {
            try HTTPResponse(foundation)
        } throws: { error in
            (error as? GannetError)?.code == .protocolViolation
        }
    }

    @Test func anHTTPResponseBecomesAnHTTPURLResponseAndBack() throws {
        var response = HTTPResponse(status: .notFound)
        response.headerFields[.contentType] = "application/json"
        let url = URL(string: "http://127.0.0.1/missing")!

        let foundation = try HTTPURLResponse.make(response, url: url)
        #expect(foundation.statusCode == 404)
        #expect(foundation.url == url)
        #expect(foundation.value(forHTTPHeaderField: "content-type") == "application/json")

        let back = try HTTPResponse(foundation)
        #expect(back.status == .notFound)
        #expect(back.headerFields[.contentType] == "application/json")
    }
}
