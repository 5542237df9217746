import Foundation
import Testing

@testable import GannetCore

/// ``CredentialRedaction/text(_:quoting:)``, the one function every error and log text built
/// from a URL or libcurl's messages passes, case by case (docs/monitors.md, "What is redacted").
@Suite("Credential redaction of free text")
struct CredentialRedactionTests {
    @Test(arguments: [
        (
            "Unsupported proxy syntax in 'http://user:s3cret@proxy:99999'",
            "Unsupported proxy syntax in 'http://***@proxy:99999'"
        ),
        ("GET https://T0KEN@api.example/v1", "GET https://***@api.example/v1"),
        ("http://user:p@ss@host/x", "http://***@host/x"),
        ("not \"gannet:s3cret@127.0.0.1:8080\"", "not \"***@127.0.0.1:8080\""),
        ("socks5h://u:s3cret@[::1]:1080", "socks5h://***@[::1]:1080"),
        ("two: http://a:s3cret@one/ and https://T0KEN@two/", "two: http://***@one/ and https://***@two/"),
        ("mail admin@example.com about http://example.com/a@b", "mail admin@example.com about http://example.com/a@b"),
        ("already http://***@host/", "already http://***@host/"),
        ("no secret here", "no secret here"),
    ])
    func urlsInTextLoseTheirUserPart(text: String, redacted: String) {
        #expect(CredentialRedaction.text(text) == redacted)
    }

    /// What Gannet gave libcurl is redacted whatever its form: a token before `@` with no
    /// scheme and no `:` looks like an e-mail address to the patterns.
    @Test func quotedStringsAreRedactedInAnyForm() {
        let text = "Unsupported proxy syntax in 't0ken@proxy:99999'"
        #expect(CredentialRedaction.text(text).contains("t0ken"))
        #expect(
            CredentialRedaction.text(text, quoting: ["t0ken@proxy:99999"])
                == "Unsupported proxy syntax in '***@proxy:99999'"
        )
    }

    @Test func aURLIsWrittenWithoutItsUserPart() throws {
        #expect(
            CredentialRedaction.url(try #require(URL(string: "https://T0KEN@host/p?q=1"))) == "https://***@host/p?q=1"
        )
        #expect(
            CredentialRedaction.url(try #require(URL(string: "http://u:s3cret@host:8080/"))) == "http://***@host:8080/"
        )
        #expect(CredentialRedaction.url(try #require(URL(string: "http://host/"))) == "http://host/")
    }

    @Test func gannetErrorMessagesAreRedactedWhereverTheyAreBuilt() {
        let error = GannetError(.invalidRequest, "\"http://u:s3cret@host/ x\" is not a valid URL")
        #expect(error.message == "\"http://***@host/ x\" is not a valid URL")
        #expect(!error.localizedDescription.contains("s3cret"))
    }

    @Test func headerRedactionMatchesNamesAndFragmentsWithoutRegardToCase() {
        let redaction = HeaderRedaction.default
        for name in [
            "authorization", "PROXY-AUTHORIZATION", "Cookie", "set-cookie", "X-Api-Key", "x-auth-token",
            "X-Amz-Security-Token", "X-Goog-Api-Key", "X-Client-Secret", "X-CSRF-Token", "X-Password",
        ] {
            #expect(redaction.redacts(name), "\(name)")
        }
        for name in ["Content-Type", "X-Request-Id", "Location", "X-Session", "WWW-Authenticate"] {
            #expect(!redaction.redacts(name), "\(name)")
        }
        #expect(redaction.value("v", ofHeader: "X-Api-Key") == "***")
        #expect(HeaderRedaction().value("v", ofHeader: "Authorization") == "v")
    }
}
