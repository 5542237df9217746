import Foundation
import Testing

@testable import Gannet

/// AFHTTPSessionManager's base URL rule: a base URL with a path gets a trailing slash, then
/// paths resolve as `URL(string:relativeTo:)` resolves them (the table in AFHTTPSessionManager.h,
/// and the behaviour AFHTTPSessionManagerTests relies on: `GET:@"get"` against the base).
@Suite("base URL resolution")
struct BaseURLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let base: String?
        let path: String
        let expected: String
        var testDescription: String { "\(base ?? "nil") + \(path.debugDescription) → \(expected)" }
    }

    static let cases: [Case] = [
        // AFHTTPSessionManager.h's table, base http://example.com/v1/
        Case(base: "http://example.com/v1/", path: "foo", expected: "http://example.com/v1/foo"),
        Case(base: "http://example.com/v1/", path: "foo?bar=baz", expected: "http://example.com/v1/foo?bar=baz"),
        Case(base: "http://example.com/v1/", path: "/foo", expected: "http://example.com/foo"),
        Case(base: "http://example.com/v1/", path: "foo/", expected: "http://example.com/v1/foo/"),
        Case(base: "http://example.com/v1/", path: "/foo/", expected: "http://example.com/foo/"),
        Case(base: "http://example.com/v1/", path: "http://example2.com/", expected: "http://example2.com/"),
        // The same base without its trailing slash: the manager adds it.
        Case(base: "http://example.com/v1", path: "foo", expected: "http://example.com/v1/foo"),
        Case(base: "http://example.com/v1", path: "foo?bar=baz", expected: "http://example.com/v1/foo?bar=baz"),
        Case(base: "http://example.com/v1", path: "/foo", expected: "http://example.com/foo"),
        Case(base: "http://example.com/v1", path: "/foo/", expected: "http://example.com/foo/"),
        Case(base: "http://example.com/v1", path: "http://example2.com/", expected: "http://example2.com/"),
        Case(base: "http://example.com/v1/v2", path: "foo", expected: "http://example.com/v1/v2/foo"),
        Case(base: "http://example.com/v1", path: "../foo", expected: "http://example.com/foo"),
        Case(base: "http://example.com/v1", path: "//other.example/x", expected: "http://other.example/x"),
        // No path: nothing to add.
        Case(base: "http://example.com", path: "foo", expected: "http://example.com/foo"),
        Case(base: "http://example.com", path: "/foo", expected: "http://example.com/foo"),
        Case(base: "http://example.com/", path: "foo", expected: "http://example.com/foo"),
        Case(base: "https://example.com:8443/api", path: "users", expected: "https://example.com:8443/api/users"),
        // An empty string is the base itself (AFNetworking's `GET:@""`).
        Case(base: "http://example.com/v1", path: "", expected: "http://example.com/v1/"),
        // Without a base URL, absolute strings only.
        Case(base: nil, path: "http://example.com/get", expected: "http://example.com/get"),
    ]

    @Test(arguments: cases)
    func resolves(_ testCase: Case) throws {
        let manager = HTTPSessionManager(baseURL: testCase.base.flatMap(URL.init(string:)))
        #expect(try manager.url(for: testCase.path).absoluteString == testCase.expected)
    }

    @Test func baseURLGetsATrailingSlashOnlyWhenItHasAPath() {
        #expect(
            HTTPSessionManager(baseURL: URL(string: "http://example.com/v1")).baseURL?.absoluteString
                == "http://example.com/v1/"
        )
        #expect(
            HTTPSessionManager(baseURL: URL(string: "http://example.com/v1/")).baseURL?.absoluteString
                == "http://example.com/v1/"
        )
        #expect(
            HTTPSessionManager(baseURL: URL(string: "http://example.com")).baseURL?.absoluteString
                == "http://example.com"
        )
        #expect(HTTPSessionManager().baseURL == nil)
    }

    @Test(arguments: ["foo", "/foo", ""])
    func relativePathWithoutBaseURLIsAnError(_ path: String) {
        #expect { try HTTPSessionManager().url(for: path) } throws: { gannetCode($0) == .invalidRequest }
    }

    @Test(arguments: ["foo bar", "foo\r\nX-Injected: 1", "foo\u{0}", "\tfoo", "foo\u{7f}", "caf\u{e9}\u{1f}"])
    func spacesAndControlCharactersAreRefused(_ path: String) {
        let manager = HTTPSessionManager(baseURL: URL(string: "http://example.com/v1"))
        #expect { try manager.url(for: path) } throws: {
            gannetCode($0) == .invalidRequest && "\($0)".contains("space or a control character")
        }
    }

    /// The scheme test read from the URL's bytes agrees with Foundation's `scheme`, for absolute
    /// URLs, relative ones without a base, and strings that only look like a scheme.
    @Test(arguments: [
        "http://example.com/", "HTTPS://example.com/a", "git+ssh://host/repo", "a.b-c+d:rest", "mailto:someone",
        "urn:isbn:0451450523", "x:", "x1:y", "foo", "/foo", "foo/bar:baz", "./a:b", "?q=1:2", "#frag:x",
        "//host/path",
    ])
    func theSchemeReadFromBytesAgreesWithFoundation(string: String) throws {
        let url = try #require(URL(string: string)).absoluteURL
        #expect(HTTPSessionManager.hasScheme(url) == (url.scheme != nil), "\(url.absoluteString)")
        let againstRelativeBase = try #require(URL(string: string, relativeTo: URL(string: "v1/")))
        #expect(
            HTTPSessionManager.hasScheme(againstRelativeBase.absoluteURL)
                == (againstRelativeBase.absoluteURL.scheme != nil)
        )
    }
}
