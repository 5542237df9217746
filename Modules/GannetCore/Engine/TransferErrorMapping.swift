internal import CCurl

/// What a failure of a transfer's state machine, or a libcurl code, means as a typed error.
/// A value with no I/O: the transfer gives it what it knows when the failure happens (the URL,
/// libcurl's message, whether a head arrived and the body is decoded, the idle timeout, the
/// proxy), so each rule below can be tested without a handle (docs/engine.md, "The rooms").
struct TransferErrorMapping {
    /// The URL of the hop that failed.
    let url: URL?
    /// libcurl's message from the handle's error buffer (`CURLOPT_ERRORBUFFER`).
    let detail: String
    /// The response head of the hop has arrived.
    let hasHead: Bool
    /// libcurl decodes the body (``Hop/encodedWireSlack`` is set).
    let decodesBody: Bool
    /// The idle timeout in nanoseconds, for the timeout's message.
    let idleTimeout: UInt64
    /// The proxies Gannet gave libcurl, which quotes them in its messages; they are redacted.
    let proxy: ProxyRoute
    /// The error the state machine recorded, for ``TransferStateMachine/Failure/recorded``.
    let recorded: (any Error)?

    /// What `machine` knows when it fails: the hop's URL, whether its head arrived and its body
    /// is decoded, the error it recorded; with libcurl's message (`detail`), the idle timeout in
    /// nanoseconds and the session's proxy.
    init(_ machine: TransferStateMachine, detail: String, idleTimeout: UInt64, proxy: ProxyRoute) {
        url = machine.hop.url
        self.detail = detail
        hasHead = machine.hasHead
        decodesBody = machine.hop.encodedWireSlack != nil
        self.idleTimeout = idleTimeout
        self.proxy = proxy
        recorded = machine.failure
    }

    /// The error `failure` stands for.
    func error(for failure: TransferStateMachine.Failure) -> any Error {
        switch failure {
        case .recorded:
            return recorded
                ?? TransportError.urlError(gannet: GannetError(.transport, "The transfer failed"), url: url)
        case .incompleteResponse:
            let error = GannetError(
                .protocolViolation,
                "The server closed the connection without a complete response",
                failingURL: url
            )
            return TransportError.urlError(gannet: error, url: url)
        case .timedOut:
            let seconds = Double(idleTimeout) / 1e9
            let error = GannetError(.timedOut, "The request timed out: no data for \(seconds) s", failingURL: url)
            return TransportError.urlError(gannet: error, url: url)
        case .libcurl(let raw):
            let code = CURLcode(rawValue: UInt32(bitPattern: raw))
            if let limit = limitError(code, raw: raw) { return TransportError.urlError(gannet: limit, url: url) }
            return libcurlError(code)
        }
    }

    /// A limit of libcurl's that it reports as a shortage of memory.
    private func limitError(_ code: CURLcode, raw: Int32) -> GannetError? {
        if code == CURLE_OUT_OF_MEMORY, hasHead, decodesBody {
            // libcurl refuses to hold more than 64 MiB decoded from one paused 32 KiB read
            // of a byte stream: over 2,000:1, a bomb by any limit.
            return GannetError(
                .decompressionBomb,
                "One read of the response body decoded to more than libcurl's 64 MiB pause buffer",
                failingURL: url,
                transportCode: Int(raw)
            )
        }
        if code == CURLE_OUT_OF_MEMORY, !hasHead {
            // libcurl refuses a header line over 100 KiB with "Out of memory".
            return GannetError(
                .headersTooLarge,
                "A response header line exceeds libcurl's 100 KiB limit",
                failingURL: url,
                transportCode: Int(raw)
            )
        }
        if code == CURLE_RECV_ERROR, hasHead, detail == "Out of memory in chunked-encoding" {
            // libcurl's chunked decoder holds one trailer line in a 4 KiB buffer and names
            // its overflow so; a real shortage of memory fails elsewhere, as CURLE_OUT_OF_MEMORY.
            return GannetError(
                .headersTooLarge,
                "A trailer line exceeds libcurl's 4 KiB limit",
                failingURL: url,
                transportCode: Int(raw)
            )
        }
        return nil
    }

    /// The error for libcurl's `code`, with its message. libcurl quotes a proxy as it was given
    /// (the configuration's, or the environment's `*_proxy` variable that ``ProxyRoute`` chose),
    /// so those strings are redacted in any form (docs/core.md, "Errors").
    func libcurlError(_ code: CURLcode) -> URLError {
        let quoted = (url.map { [$0.absoluteString] } ?? []) + proxy.quoted
        return TransportError.urlError(curlCode: code, detail: detail, url: url, quoted: quoted)
    }
}
