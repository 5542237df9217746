import Foundation
import GannetCore
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `errorTypeName(_:)`, the one `error.type` the metrics and tracing integrations share: short,
/// bounded, and never the error's message (which can quote a URL with a credential).
@Suite("errorTypeName")
struct ErrorTypeNameTests {
    private struct ParseFailure: Error, CustomStringConvertible {
        var description: String { "failed at https://user:secret@example.com/" }
    }

    @Test func namesURLErrorsGannetErrorsAndOtherTypes() {
        #expect(errorTypeName(URLError(.cancelled)) == "cancelled")
        #expect(errorTypeName(URLError(.timedOut)) == "timedOut")
        #expect(errorTypeName(URLError(.secureConnectionFailed)) == "secureConnectionFailed")
        #expect(errorTypeName(URLError(.dnsLookupFailed)) == "URLError.\(URLError.Code.dnsLookupFailed.rawValue)")
        #expect(errorTypeName(GannetError(.bodyTooLarge, "over the limit")) == "bodyTooLarge")
        #expect(errorTypeName(ParseFailure()) == "ParseFailure")
        #expect(!errorTypeName(ParseFailure()).contains("secret"))
    }
}
