/// The limits a response body is held to as it arrives (docs/core.md, "Limits"): the most
/// bytes its sink takes after decoding, and how far a `Content-Encoding` may expand it (a
/// decompression bomb). A value with no I/O: the write callback asks it before each chunk goes
/// to the sink, and every refusal is tested in BodyLimitsTests.
struct BodyLimits: Equatable {
    /// The most decoded bytes the sink accepts (``BodySink/limit(_:)``), `nil` for no limit.
    var maximumBytes: Int64?
    /// The most decoded bytes per byte on the wire, `nil` for no limit.
    var maximumRatio: Int?
    /// Decoded bytes below which the ratio is not checked, so small, very compressible bodies
    /// are never refused (``SessionConfiguration/Limits/decompressionRatioGraceBytes``).
    var graceBytes = SessionConfiguration.Limits.decompressionRatioGraceBytes

    /// Why a body that has reached `decoded` bytes is refused, or `nil`. `encodedSlack` is what
    /// to add to libcurl's count of wire bytes (``Hop/encodedWireSlack``), `nil` when the body
    /// is not decoded; `wireBytes` reads that count (asked only when the ratio is checked, since
    /// libcurl counts the encoded bytes it read before it decodes them and Gannet sees only
    /// decoded bytes).
    func refusal(decoded: Int64, encodedSlack: Int64?, wireBytes: () -> Int64, url: URL?) -> GannetError? {
        if let maximumBytes, decoded > maximumBytes {
            return GannetError(
                .bodyTooLarge,
                "The response body exceeds \(maximumBytes) bytes after decoding",
                failingURL: url
            )
        }
        guard let slack = encodedSlack, let ratio = maximumRatio, decoded > graceBytes else { return nil }
        let wire = max(wireBytes() + slack, 1)
        let (allowed, overflow) = wire.multipliedReportingOverflow(by: Int64(max(ratio, 1)))
        guard !overflow, decoded > allowed else { return nil }
        return GannetError(
            .decompressionBomb,
            "The response body decoded to \(decoded) bytes from \(wire) on the wire, over the \(ratio):1 limit",
            failingURL: url
        )
    }
}

extension BodyLimits {
    /// The limits of a sink that takes `maximumBytes` (``BodySink/limit(_:)``) under the
    /// session's `limits`.
    init(maximumBytes: Int64?, _ limits: SessionConfiguration.Limits) {
        self.init(maximumBytes: maximumBytes, maximumRatio: limits.maximumDecompressionRatio)
    }

    /// What to add to libcurl's count of wire bytes for the ratio check of the body `head`
    /// announces (``Hop/encodedWireSlack``): `nil` when libcurl does not decode it (`decodes` is
    /// off, or the head names no coding or `identity`), `0` for a body counted as it arrives,
    /// and one read (`readBufferSize`) for a chunked one, which libcurl counts only after it
    /// removed the chunking, so up to a read behind.
    static func encodedSlack(for head: ResponseHead, decodes: Bool, readBufferSize: Int) -> Int64? {
        guard decodes, let coding = head.value("Content-Encoding"), !coding.isEmpty,
            !ASCII.equalsIgnoringCase(coding, "identity")
        else { return nil }
        let chunked = head.value("Transfer-Encoding")?.lowercased().contains("chunked") == true
        return chunked ? Int64(readBufferSize) : 0
    }
}
