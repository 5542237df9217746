import GannetCore

/// A route of the fault server, each one broken in one documented way (Tests/Servers/README.md).
///
/// ```swift
/// let url = servers.url(.truncated)                      // Content-Length 1000, 500 bytes, close
/// let hop = servers.url(.redirect(to: "file:///etc/passwd", status: 307))
/// ```
public struct FaultRoute: Sendable, Hashable, CustomStringConvertible {
    /// The path and query, starting with `/`.
    public let pathAndQuery: String

    /// A route by its path and query, for routes without a named member.
    public init(_ pathAndQuery: String) {
        self.pathAndQuery = pathAndQuery
    }

    /// The path and query.
    public var description: String { pathAndQuery }

    // MARK: Well-formed

    /// `200 ok`.
    public static let ok = FaultRoute("/ok")
    /// `200` whose body is the request head exactly as received, then `body-length:` and `body-sha256:` lines.
    public static let echo = FaultRoute("/echo")
    /// `200` whose body is `LENGTH SHA256HEX` of the request body (plain or chunked; `Expect: 100-continue` honoured).
    public static let uploadDigest = FaultRoute("/upload-digest")
    /// `200` with the number of connections the canary port has accepted; see ``TestServers/canaryCount()``.
    public static let canaryCount = FaultRoute("/canary/count")
    /// `code` with an empty body for 204 and 304, else a short text body.
    public static func status(_ code: Int) -> FaultRoute { FaultRoute("/status/\(code)") }
    /// `200 ok` after waiting `milliseconds` (asynchronously: thousands may wait at once).
    public static func delay(milliseconds: Int) -> FaultRoute { FaultRoute("/delay-ms/\(milliseconds)") }

    // MARK: Redirects

    /// `status` with `Location: target` verbatim: any scheme, any string.
    public static func redirect(to target: String, status: Int = 302) -> FaultRoute {
        FaultRoute("/redirect?to=\(percentEncoded(target))&status=\(status)")
    }
    /// `302` to `/loop-b`, which answers `302` back to `/loop-a`.
    public static let loopA = FaultRoute("/loop-a")
    /// `302` to `/chain/(hops - 1)`; `/chain/0` answers `200 done`.
    public static func chain(_ hops: Int) -> FaultRoute { FaultRoute("/chain/\(hops)") }

    // MARK: Broken framing

    /// `Content-Length: 1000`, 500 bytes, close.
    public static let truncated = FaultRoute("/truncated")
    /// Two different `Content-Length` headers (5 and 10), body `hello`, close.
    public static let doubleLength = FaultRoute("/double-length")
    /// Chunked, with the non-hex chunk size `zz`.
    public static let badChunk = FaultRoute("/bad-chunk")
    /// Chunked, with the chunk size `ffffffffffffffffff`.
    public static let overflowChunk = FaultRoute("/overflow-chunk")
    /// Chunked, closed after one chunk, before the last (zero) chunk.
    public static let chunkClose = FaultRoute("/chunk-close")

    // MARK: Dropped and stalled connections

    /// `Content-Length: 1048576`, 256 KiB of body, then a TCP reset.
    public static let reset = FaultRoute("/reset")
    /// A TCP reset right after the request is read, before any response byte.
    public static let resetImmediately = FaultRoute("/reset-immediately")
    /// Closes the connection after reading the request, without a response.
    public static let emptyReply = FaultRoute("/empty-reply")
    /// Reads the request and never answers.
    public static let stall = FaultRoute("/stall")
    /// Headers and 10 of 1000 body bytes, then nothing.
    public static let stallBody = FaultRoute("/stall-body")
    /// `Content-Length: 1000000`, then one body byte every 2 s, forever.
    public static let slowloris = FaultRoute("/slowloris")
    /// `bytes` body bytes, one every `intervalMilliseconds`, then a complete response.
    public static func slowBody(bytes: Int, intervalMilliseconds: Int) -> FaultRoute {
        FaultRoute("/slow-body?bytes=\(bytes)&interval_ms=\(intervalMilliseconds)")
    }
    /// A chunked body that never ends, as fast as the client reads.
    public static let neverEnds = FaultRoute("/never-ends")

    // MARK: Oversized and malformed heads

    /// One 1 MiB header.
    public static let hugeHeader = FaultRoute("/huge-header")
    /// 10,000 small headers.
    public static let manyHeaders = FaultRoute("/many-headers")
    /// The status line `HTTP/1.1 OK 200 Garbage`.
    public static let badStatus = FaultRoute("/bad-status")
    /// A NUL byte in a header value.
    public static let nulHeader = FaultRoute("/nul-header")
    /// `count` `100 Continue` heads, then `200 ok`.
    public static func informationalFlood(count: Int = 1000) -> FaultRoute { FaultRoute("/1xx-flood?count=\(count)") }

    // MARK: Compression bombs (each inflates to 200 MiB of zeros)

    /// `Content-Encoding: gzip`, about 200 KB on the wire.
    public static let gzipBomb = FaultRoute("/gzip-bomb")
    /// `Content-Encoding: deflate` (zlib stream), about 200 KB on the wire.
    public static let deflateBomb = FaultRoute("/deflate-bomb")
    /// `Content-Encoding: br`, a few hundred bytes on the wire.
    public static let brotliBomb = FaultRoute("/brotli-bomb")
    /// `Content-Encoding: gzip, gzip`: the gzip bomb gzipped again, about 500 bytes on the wire.
    public static let stackedEncoding = FaultRoute("/stacked-encoding")
    /// `Content-Encoding: gzip`, `mebibytes` MiB of sparse bytes at about 139:1 (a legitimate
    /// body a bomb limit must let through); `X-Decoded-Length` gives the decoded size.
    public static func gzipCompressible(mebibytes: Int = 64) -> FaultRoute {
        FaultRoute("/gzip-compressible?mib=\(mebibytes)")
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters, so any string survives as a query value.
    private static func percentEncoded(_ value: String) -> String {
        var allowed = CharacterSet()
        allowed.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
