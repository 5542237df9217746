import Foundation
import Testing

@testable import GannetCore

/// The body limits step by step, without a socket: the size limit after decoding, the
/// decompression ratio with its grace and its slack, and what is never refused.
@Suite struct BodyLimitsTests {
    private static let url = URL(string: "https://example.test/a")
    private let grace: Int64 = 1_000

    private func limits(bytes: Int64? = nil, ratio: Int? = nil) -> BodyLimits {
        BodyLimits(maximumBytes: bytes, maximumRatio: ratio, graceBytes: grace)
    }

    @Test func aBodyOverTheSizeLimitIsTooLarge() throws {
        let error = try #require(
            limits(bytes: 100).refusal(decoded: 101, encodedSlack: nil, wireBytes: { 0 }, url: Self.url)
        )
        #expect(error.code == .bodyTooLarge)
        #expect(limits(bytes: 100).refusal(decoded: 100, encodedSlack: nil, wireBytes: { 0 }, url: Self.url) == nil)
    }

    @Test func aDecodedBodyOverTheRatioIsABomb() throws {
        // 10 wire bytes + 0 slack at 200:1 allow 2,000 decoded bytes.
        let bomb = limits(ratio: 200).refusal(decoded: 2_001, encodedSlack: 0, wireBytes: { 10 }, url: Self.url)
        #expect(try #require(bomb).code == .decompressionBomb)
        #expect(limits(ratio: 200).refusal(decoded: 2_000, encodedSlack: 0, wireBytes: { 10 }, url: Self.url) == nil)
    }

    @Test func theSlackCountsAsWireBytes() {
        // A chunked body is counted up to one read behind: 10 + 5 wire bytes allow 3,000.
        #expect(limits(ratio: 200).refusal(decoded: 2_500, encodedSlack: 5, wireBytes: { 10 }, url: Self.url) == nil)
    }

    @Test func theRatioWaitsForTheGraceAndAppliesOnlyToADecodedBody() {
        var asked = false
        let small = limits(ratio: 2).refusal(
            decoded: grace,
            encodedSlack: 0,
            wireBytes: {
                asked = true
                return 1
            },
            url: Self.url
        )
        #expect(small == nil && !asked)
        #expect(
            limits(ratio: 2).refusal(decoded: grace * 10, encodedSlack: nil, wireBytes: { 1 }, url: Self.url) == nil
        )
        #expect(limits().refusal(decoded: .max, encodedSlack: 0, wireBytes: { 1 }, url: Self.url) == nil)
    }

    @Test func anOverflowingAllowanceIsNotARefusal() {
        #expect(
            limits(ratio: 200).refusal(decoded: .max, encodedSlack: 0, wireBytes: { .max / 2 }, url: Self.url) == nil
        )
    }

    // MARK: The slack of a decoded body

    private func head(_ fields: [(String, String)]) -> ResponseHead {
        ResponseHead(statusCode: 200, httpVersion: "HTTP/1.1", fields: fields.map { (name: $0.0, value: $0.1) })
    }

    @Test func aCodedBodyIsCheckedWithNoSlackAndAChunkedOneWithARead() {
        let gzip = head([("Content-Encoding", "gzip")])
        #expect(BodyLimits.encodedSlack(for: gzip, decodes: true, readBufferSize: 16_384) == 0)
        let chunked = head([("Content-Encoding", "br"), ("Transfer-Encoding", "Chunked")])
        #expect(BodyLimits.encodedSlack(for: chunked, decodes: true, readBufferSize: 16_384) == 16_384)
    }

    @Test func aBodyLibcurlDoesNotDecodeHasNoRatio() {
        let gzip = head([("Content-Encoding", "gzip")])
        #expect(BodyLimits.encodedSlack(for: gzip, decodes: false, readBufferSize: 16_384) == nil)
        for coding in ["", "identity", "IDENTITY"] {
            let plain = head([("Content-Encoding", coding)])
            #expect(BodyLimits.encodedSlack(for: plain, decodes: true, readBufferSize: 16_384) == nil, "\(coding)")
        }
        #expect(BodyLimits.encodedSlack(for: head([]), decodes: true, readBufferSize: 16_384) == nil)
    }

    @Test func theSessionsRatioLimitIsTheSinks() {
        var session = SessionConfiguration.Limits()
        session.maximumDecompressionRatio = 7
        let limits = BodyLimits(maximumBytes: 10, session)
        #expect(limits.maximumBytes == 10)
        #expect(limits.maximumRatio == 7)
    }
}
